"""`python -m benchmarks` runs every benchmark and prints the figures."""

from benchmarks import engine

if __name__ == "__main__":
    print("== engine: Movement activations ==")
    engine.main()
