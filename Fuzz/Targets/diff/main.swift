import FuzzDriver

runFuzzer(.diff)
