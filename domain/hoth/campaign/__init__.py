"""Battle of Hoth campaigns (battle-of-hoth-content.md 3.1, SOURCE: the shared campaign rules page; 5.5
PROPOSED stand-in graphs).

A campaign is a graph of battles (``graph``): each node names a scenario; when its battle ends, the
winner's outcome names the next node (or ends the campaign with a winner) and the effects both sides
carry into the next battle: leader cards for that battle only, support cards drawn into a hand kept from
battle to battle (``support_cards``), units added to or removed from the next setup (``variants``).
Secret objectives (``secret_objectives``) are visible only to their own seat until they are met; their
reward is immediate.

The aggregate is pure: ``decider.decide`` turns a campaign command (``commands``) into events
(``events``), ``state.evolve`` folds them; ``battles`` plans the next battle, ``view`` is what a seat
reads, and ``rules.HothCampaigns`` is the kernel's campaign protocol over them.
"""
