"""Checking other people's work: printed tables, simulators and gymnasium's Blackjack-v1."""
