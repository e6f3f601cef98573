"""Rise of Empires (game id ``rise``)."""
