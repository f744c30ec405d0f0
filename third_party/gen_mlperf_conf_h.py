#!/usr/bin/env python3
"""Writes LoadGen's mlperf_conf.h from a release's mlperf.conf.

Same escaping as the release's own setup.py (mlcommons_loadgen sdist): the
conf becomes a C string literal named mlperf_conf, which
TestSettings::FromConfig(..., conf_type=0) parses as the official settings.

usage: gen_mlperf_conf_h.py <mlperf.conf> <out mlperf_conf.h>
"""
import sys


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: gen_mlperf_conf_h.py <mlperf.conf> <out mlperf_conf.h>")
    with open(sys.argv[1], "r") as f:
        conf = f.read()
    # Escape backslashes and double quotes, then convert newlines (setup.py).
    conf = conf.replace("\\", "\\\\").replace('"', '\\"')
    conf = conf.replace("\n", '\\n"\n"')
    with open(sys.argv[2], "w") as out:
        out.write(f'const char* mlperf_conf =\n"{conf}";\n')


if __name__ == "__main__":
    main()
