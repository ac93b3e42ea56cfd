@_exported import Clocks
@_exported import Tether
@_exported import TetherFlow

// TetherTesting re-exports Tether and swift-clocks, so a test target imports one module and
// gets `TestClock` / `ImmediateClock` for virtual time alongside recorders, the exhaustive
// probe and leak tracking.
