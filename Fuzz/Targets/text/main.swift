import FuzzDriver

runFuzzer(.text)
