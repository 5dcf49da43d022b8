"""Synthetic pile scenes with exact ground truth: table, cards, hands, camera; clip writer; scoring."""
