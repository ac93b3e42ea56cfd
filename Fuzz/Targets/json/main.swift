import FuzzDriver
import FuzzProperties

runFuzzer("json", JSONDecodingProperties.check)
