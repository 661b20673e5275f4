"""Quadbit's lab (scripts/lab): the measuring commands, each a module with main(argv), over one
module, core, that alone speaks UCI, reads PGN, computes Elo, starts fastchess and builds."""
