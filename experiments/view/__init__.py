"""See the game: a line of moves as engine-computed frames, in words, as HTML.

- :mod:`.table`: one position as a plain, JSON-ready table (what a player sees);
- :mod:`.words`: a move described in words;
- :mod:`.frames`: a deal and a line of moves turned into frames, each table
  computed by the engine, the automatic reserve fills as frames of their own;
- :mod:`.fate`: where a played line's fate changed (solve after every move);
- :mod:`.decisions`: which kinds of decisions lose (light: no solver);
- :mod:`.games`: stored blind-player games analysed one by one;
- :mod:`.html`: the self-contained HTML step-through.

This file imports nothing, so the engine's lazy ``Position.draw`` may load
:mod:`.table` without loading the rest.
"""
