"""`python -m benchmarks` runs every benchmark and prints the figures."""

from benchmarks import ai_games, engine

if __name__ == "__main__":
    print("== engine: Movement activations (decide + apply) ==")
    engine.main()
    print("== AI against AI, quick start ==")
    ai_games.main()
