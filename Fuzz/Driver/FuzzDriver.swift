@_exported import TetherFuzzProperties

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The target the engine calls back into: its name and its properties. Set once by
/// ``runFuzzer(_:_:)`` before the engine starts; libFuzzer then calls ``testOneInput(_:_:)`` on
/// that same thread only, so nothing reads it concurrently with the write.
nonisolated(unsafe) private var selectedTarget:
  (name: String, check: ([UInt8]) throws(PropertyViolation) -> Void) = ("none", { _ in })

/// libFuzzer's entry point for one input: checks the selected target's properties and aborts
/// (which the engine reports as a crash, saving the input) if one does not hold.
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
  do {
    try selectedTarget.check(bytes)
  } catch {
    let message = Array("property violated (\(selectedTarget.name)): \(error)\n".utf8)
    _ = message.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    abort()
  }
  return 0
}

@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
  _ argc: UnsafeMutablePointer<CInt>,
  _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
  _ testOneInput: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// Runs the libFuzzer engine on a library target with the process's arguments (corpus folders
/// and `-flags`), and exits with its status.
public func runFuzzer(_ target: FuzzTarget) -> Never {
  runFuzzer(target.rawValue) { input throws(PropertyViolation) in try target.check(input) }
}

/// Runs the libFuzzer engine on the properties `check` holds, named `name` in its reports.
///
/// The executables define a Swift entry point, which SwiftPM links as `main`; the engine's
/// own `main` is therefore never used, and this starts it instead.
public func runFuzzer(
  _ name: String, _ check: @escaping ([UInt8]) throws(PropertyViolation) -> Void
) -> Never {
  selectedTarget = (name, check)
  var argc = CommandLine.argc
  var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
  exit(LLVMFuzzerRunDriver(&argc, &argv, testOneInput))
}
