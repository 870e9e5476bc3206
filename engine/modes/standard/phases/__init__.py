"""The phases of a day as frames: draft, buy, read lessons, rescue, rare finds, and the
anytime windows with every anytime card's effect."""
