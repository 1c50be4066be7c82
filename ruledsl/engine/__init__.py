"""The engine: play a compiled Program (state, turns, observation, failures, budgets); it imports only text/."""
