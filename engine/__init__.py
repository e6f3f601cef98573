"""Pure, deterministic game rules for Annals: no I/O, no Discord, no imaging."""
