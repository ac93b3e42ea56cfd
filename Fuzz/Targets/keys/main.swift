import FuzzDriver

runFuzzer(.keys)
