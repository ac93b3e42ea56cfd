import FuzzDriver

runFuzzer(.web)
