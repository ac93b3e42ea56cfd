import Articles
import Courses
import Entry
import ExampleSupport
import Foundation
import Gallery
import Profile
import TetherFuzzProperties

/// Every app's JSON decoding, through the path its HTTP service uses (`HTTPClient.decode`).
///
/// Input: byte 0 picks the decoder (a 500px page, a 500px photo, the course list, a profile, a
/// user, the article dictionaries); the rest is the response body.
/// Properties:
/// - a body that does not decode is a `ServiceError.malformedResponse` with a message;
/// - a body that decodes re-encodes to JSON that decodes to the same value.
public enum JSONDecodingProperties {
  /// Checks the properties for one input: the first byte picks the decoder, the rest is the
  /// body.
  ///
  /// - Parameter input: The fuzzer's bytes.
  /// - Throws: `PropertyViolation` naming the property that did not hold.
  public static func check(_ input: [UInt8]) throws(PropertyViolation) {
    guard let selector = input.first else { return }
    let body = Data(input.dropFirst())
    switch selector % 6 {
    case 0: try roundTrip(body, as: PhotoPage.self)
    case 1: try roundTrip(body, as: Photo.self)
    case 2: try roundTrip(body, as: [Course].self)
    case 3: try roundTrip(body, as: Profile.self)
    case 4: try roundTrip(body, as: User.self)
    default: try articles(body)
    }
  }

  private static func roundTrip<Value: Codable & Equatable>(_ body: Data, as type: Value.Type)
    throws(PropertyViolation)
  {
    let value: Value
    do {
      value = try HTTPClient.decode(body, as: Value.self)
    } catch {
      try requireClear(error, decoding: Value.self)
      return
    }
    let encoded: Data
    do {
      encoded = try JSONEncoder().encode(value)
    } catch {
      throw PropertyViolation("\(Value.self) \(value) does not encode: \(error)")
    }
    do {
      let again = try HTTPClient.decode(encoded, as: Value.self)
      try require(again == value, "\(Value.self) round trip changed \(value) into \(again)")
    } catch let error as PropertyViolation {
      throw error
    } catch {
      let json = String(decoding: encoded, as: UTF8.self)
      throw PropertyViolation("\(Value.self) encoded as \(json) does not decode: \(error)")
    }
  }

  private static func articles(_ body: Data) throws(PropertyViolation) {
    let records: [ArticleRecord]
    do {
      records = try HTTPArticleService.records(from: body)
    } catch {
      try requireClear(error, decoding: ArticleRecord.self)
      return
    }
    let dictionaries = records.compactMap { record -> JSONValue? in
      if case .dictionary(let object) = record { return .object(object) }
      return nil
    }
    try require(dictionaries.count == records.count, "a record is not a dictionary")
    do {
      let encoded = try JSONEncoder().encode(dictionaries)
      let again = try HTTPArticleService.records(from: encoded)
      try require(again == records, "article round trip changed \(records) into \(again)")
    } catch let error as PropertyViolation {
      throw error
    } catch {
      throw PropertyViolation("article dictionaries \(dictionaries) do not round trip: \(error)")
    }
  }

  private static func requireClear<Value>(_ error: ServiceError, decoding type: Value.Type)
    throws(PropertyViolation)
  {
    guard case .malformedResponse(let message) = error else {
      throw PropertyViolation("decoding \(Value.self) failed with \(error), not malformedResponse")
    }
    try require(!message.isEmpty, "decoding \(Value.self) failed with an empty message")
  }
}

/// Throws a `PropertyViolation` built from `message` unless `condition` holds.
private func require(_ condition: Bool, _ message: @autoclosure () -> String)
  throws(PropertyViolation)
{
  if !condition { throw PropertyViolation(message()) }
}
