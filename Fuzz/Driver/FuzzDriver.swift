@_exported import FuzzProperties

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The target the engine calls back into. Set once by ``runFuzzer(_:)`` before the engine
/// starts; libFuzzer then calls ``testOneInput(_:_:)`` on that same thread only, so nothing
/// reads it concurrently with the write.
nonisolated(unsafe) private var selectedTarget = FuzzTarget.keys

/// libFuzzer's entry point for one input: checks the selected target's properties and aborts
/// (which the engine reports as a crash, saving the input) if one does not hold.
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
  do {
    try selectedTarget.check(bytes)
  } catch {
    let message = Array("property violated (\(selectedTarget.rawValue)): \(error)\n".utf8)
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

/// Runs the libFuzzer engine on `target` with the process's arguments (corpus folders and
/// `-flags`), and exits with its status.
///
/// The executables define a Swift entry point, which SwiftPM links as `main`; the engine's
/// own `main` is therefore never used, and this starts it instead.
public func runFuzzer(_ target: FuzzTarget) -> Never {
  selectedTarget = target
  var argc = CommandLine.argc
  var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
  exit(LLVMFuzzerRunDriver(&argc, &argv, testOneInput))
}
