"""The Emperor: the automated opponent, deciding inside the engine (section 4 of the rules).

When the human's turn ends, :func:`~domain.emperor.automaton.turn.emperor_turn` runs the Emperor's whole
turn (SOLO-TURN) and emits every choice as an event with its ruling: the order card revealed, each step,
each movement with the cells considered and the tie-break (SOLO-MOVE, SOLO-TIE: ``moves``), the card
chosen (SOLO-CARD: ``turn``), each target and switch (SOLO-TGT, SOLO-SWITCH: ``attacks``, ``pushes``),
pushes (SOLO-PUSH: ``pushes``), star abilities (SOLO-STAR: ``stars``), fallbacks (SOLO-FALL:
``fallback``), the crest (SOLO-CREST) and location bonuses (SOLO-LOCB). ``wording`` writes the sets and
tie-breaks the rulings show.

Nothing here is random: the only draws are order-deck shuffles, on the kernel's ``automaton`` stream.
"""
