"""Battle of Hoth: the rules engine as a decider on the kernel (rules: battle-of-hoth.md)."""
