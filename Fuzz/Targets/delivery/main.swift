import FuzzDriver

runFuzzer(.delivery)
