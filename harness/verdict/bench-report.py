#!/usr/bin/env python3
"""bench-report.py OUTDIR ARCH=LOG...: `make bench`'s figures as data.

Reads the "BENCH-DATA TYPE KEY=VALUE..." lines that harness/guests/in-guest/bench
prints in each guest's log and writes, per architecture,
OUTDIR/<arch>.json (every figure, with the kernel it came from) and
OUTDIR/<arch>.png, a plot of offered against captured rate of the
capture benchmark (gnuplot), one line per perf record option set. A log
without figures (a guest that did not get that far) is reported and
skipped; the exit status is 1 then, so that `make bench` says so.
"""
import json
import os
import re
import shutil
import subprocess
import sys

LINE = re.compile(r'BENCH-DATA (\S+)((?: \S+=\S*)*)\s*$')


def value(v):
    """A number if it is one, else the string."""
    for conv in (int, float):
        try:
            return conv(v)
        except ValueError:
            pass
    return v


def parse(text):
    """The figures of one log, as a dict ready for JSON."""
    out = {'capture': {}, 'vpa_dtl': {}}
    for line in text.splitlines():
        m = LINE.search(line)
        if not m:
            continue
        kind = m.group(1)
        kv = {k: value(v) for k, v in (t.split('=', 1) for t in m.group(2).split())}
        if kind == 'point':
            out['capture'].setdefault(kv.pop('name'), {'points': []})['points'].append(kv)
        elif kind == 'best':
            out['capture'].setdefault(kv.pop('name'), {'points': []})['best'] = kv
        elif kind.startswith('dtl_'):
            if kind == 'dtl_point':
                out['vpa_dtl'].setdefault('points', []).append(kv)
            elif kind == 'dtl_cost':
                out['vpa_dtl'].setdefault('cost', {})[str(kv.pop('interval', '?'))] = kv
            else:
                out['vpa_dtl'][kind[4:]] = kv
        else:
            out[kind] = kv
    if not out['vpa_dtl']:
        del out['vpa_dtl']
    return out


def plot(fig, arch, png):
    """Offered against captured rate, in MB/s, log-log, a line per option
    set, the runs that lost data circled; False without gnuplot."""
    gnuplot = shutil.which('gnuplot')
    if not gnuplot or not fig['capture']:
        return False
    dat = png[:-4] + '.dat'
    series = []
    with open(dat, 'w') as f:
        for i, (name, c) in enumerate(fig['capture'].items()):
            pts = sorted(c['points'], key=lambda p: p['offered_mbs'])
            if i:
                f.write('\n\n')
            for p in pts:
                f.write('%g %g %d\n' % (p['offered_mbs'], p['captured_bps'] / 1e6, p['loss']))
            series.append(name)
    memcpy = fig.get('memcpy', {}).get('bps', 0) / 1e6
    kernel = fig.get('kernel', {}).get('release', '?')
    cmds = [
        'set terminal pngcairo size 1000,650' if 'pngcairo' in terminals(gnuplot)
        else 'set terminal png size 1000,650',
        'set output "%s"' % png,
        'set title "aux_test rate mode captured by perf record -C 0, %s guest, kernel %s"'
        % (arch, kernel),
        'set termoption noenhanced',
        'set xlabel "offered (MB/s)"', 'set ylabel "captured (MB/s)"',
        'set logscale xy', 'set key right bottom', 'set grid',
        'set yrange [10:%g]' % max(2 * memcpy, 1000),
    ]
    plots = ['x title "captured = offered" with lines dashtype 2 lc rgb "gray"']
    if memcpy:
        plots.append('%g title "guest memcpy %.0f MB/s" with lines lc rgb "black"'
                     % (memcpy, memcpy))
    tmpfs = fig.get('tmpfs', {}).get('bps', 0) / 1e6
    if tmpfs:
        plots.append('%g title "guest tmpfs write() %.0f MB/s" with lines dashtype 3 lc rgb "black"'
                     % (tmpfs, tmpfs))
    for i, name in enumerate(series):
        plots.append('"%s" index %d using 1:2 title "%s" with linespoints lc %d'
                     % (dat, i, name, i + 1))
    for i, name in enumerate(series):
        plots.append('"%s" index %d using 1:(($3 > 0) ? $2 : 1/0) notitle with points pt 6 ps 2 lc %d'
                     % (dat, i, i + 1))
    plots.append('1/0 title "(circled: lost data)" with points pt 6 ps 2 lc rgb "black"')
    cmds.append('plot [20:200000] ' + ', '.join(plots))
    subprocess.run([gnuplot], input='\n'.join(cmds) + '\n', text=True, check=True)
    return True


def terminals(gnuplot):
    r = subprocess.run([gnuplot, '-e', 'set terminal'], capture_output=True, text=True)
    return r.stdout + r.stderr


def main(argv):
    if len(argv) < 3:
        sys.stderr.write(__doc__)
        return 2
    outdir = argv[1]
    os.makedirs(outdir, exist_ok=True)
    rc = 0
    for arg in argv[2:]:
        arch, log = arg.split('=', 1)
        try:
            with open(log, errors='replace') as f:
                fig = parse(f.read())
        except OSError as e:
            print('bench-report: %s: %s' % (arch, e))
            rc = 1
            continue
        if 'memcpy' not in fig:
            print('bench-report: %s: no figures in %s' % (arch, log))
            rc = 1
            continue
        path = os.path.join(outdir, arch + '.json')
        with open(path, 'w') as f:
            json.dump(fig, f, indent=1, sort_keys=True)
            f.write('\n')
        png = os.path.join(outdir, arch + '.png')
        made = plot(fig, arch, png)
        print('bench-report: %s: %s%s' % (arch, path, ', ' + png if made else
                                          ' (no plot: gnuplot missing)'))
    return rc


if __name__ == '__main__':
    sys.exit(main(sys.argv))
