"""Absorbing Markov chains over exact rationals: compiling a graph and solving for absorption."""
