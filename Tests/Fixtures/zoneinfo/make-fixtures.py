#!/usr/bin/env python3
"""Writes the synthetic TZif files of this TZDIR fixture (RFC 8536, version 2).

The zones are made up, so a test that finds their offsets proves that TZDIR was read:
- Test/HalfPast: UTC+01:30 at every instant, no transitions, footer "<+0130>-1:30".
- Test/Rule: UTC+00:00 until 2000-01-01T00:00Z, then UTC+01:30, with daylight-saving time
  (+02:30) from the last Sunday of March 01:00 to the last Sunday of October 02:00 local,
  given only by the footer "<+0130>-1:30<+0230>,M3.5.0/1,M10.5.0/2" after the one transition.
Run it from this directory to write them again.
"""
import struct


def tzif(transitions, types, footer):
    """transitions: [(instant, type index)]; types: [(utoff, isdst, abbreviation)]."""
    abbreviations = b""
    indices = []
    for _, _, name in types:
        indices.append(len(abbreviations))
        abbreviations += name.encode() + b"\0"

    def block(size):
        fmt = ">q" if size == 8 else ">l"
        data = b"".join(struct.pack(fmt, t) for t, _ in transitions)
        data += bytes(i for _, i in transitions)
        data += b"".join(struct.pack(">lBB", off, dst, indices[k]) for k, (off, dst, _) in enumerate(types))
        data += abbreviations
        header = b"TZif2" + b"\0" * 15 + struct.pack(
            ">6l", 0, 0, 0, len(transitions), len(types), len(abbreviations))
        return header + data

    return block(4) + block(8) + b"\n" + footer.encode() + b"\n"


with open("Test/HalfPast", "wb") as out:
    out.write(tzif([], [(5400, 0, "+0130")], "<+0130>-1:30"))
with open("Test/Rule", "wb") as out:
    out.write(tzif([(946684800, 1)], [(0, 0, "+00"), (5400, 0, "+0130")], "<+0130>-1:30<+0230>,M3.5.0/1,M10.5.0/2"))
