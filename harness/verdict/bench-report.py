#!/usr/bin/env python3
"""bench-report.py OUTDIR ARCH=LOG...: `make bench`'s figures as data.

Reads the "BENCH-DATA TYPE KEY=VALUE..." lines that harness/guests/in-guest/bench
prints in each guest's log and writes, per architecture,
OUTDIR/<arch>.json (every figure, with the kernel it came from) and
OUTDIR/<arch>.png, a plot of offered against captured rate of the
capture benchmark (gnuplot), one line per perf record option set. A log
without figures (a guest that did not get that far) is reported and
skipped; the exit status is 1 then, so that `make bench` says so.

bench-report.py --versus OUTDIR ARCH OURS.LOG,... UPSTREAM.LOG,...: the
ratios of ours to upstream's kernel (VERSUS) from the logs of alternating
boots (harness/compare/compare.mk: bench-versus, mode bench-pt, on x86_64;
bench-versus-dtl, mode bench-dtl-hv, on ppc64le), printed with their goals
and written as OUTDIR/ARCH-versus.json and ARCH-versus.png.
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


# make bench's ratios of ours to upstream's (harness/compare/compare.mk,
# bench-versus and bench-versus-dtl), per arch: the model the guest runs
# on, the figure types each boot's log must have, and for each ratio its
# name, the figure (TYPE, KEY), the goal (issue 33: the ratio of ours to
# upstream's at most or at least BOUND; None: the issue sets none, the
# ratio is printed only) and what it is.
VERSUS = {
    'x86_64': ('Intel PT model', ('pt_trigger', 'pt_capture'), [
        ('trigger_noop', ('pt_trigger', 'noop_ratio'), ('<=', 1.0),
         'a trigger with nothing to do (x the untagged loop, intel_pt//u)'),
        ('pause_resume_u', ('pt_trigger', 'u_pause_resume_ratio'), ('<=', 1.05),
         'a real pause and resume, intel_pt//u (x the untagged loop)'),
        ('pause_resume_k', ('pt_trigger', 'k_pause_resume_ratio'), ('<=', 1.05),
         'a real pause and resume, intel_pt//k (x the untagged loop)'),
        ('capture', ('pt_capture', 'bps'), ('>=', 0.95),
         'capture rate of call-loop-bench into tmpfs (bytes/s)'),
    ]),
    'ppc64le': ('DTL model', ('dtlhv',), [
        ('dtl_poll_default', ('dtlhv', 'default_cost'), None,
         "vpa_dtl's poll: CPU 0's share in interrupts, less without it (perf's default interval)"),
        ('dtl_poll_1ms', ('dtlhv', '1000000_cost'), None,
         "vpa_dtl's poll: CPU 0's share in interrupts, less without it (1 ms)"),
        ('dtl_entries_default', ('dtlhv', 'default_entries'), None,
         'entries a recording holds (perf\'s default interval)'),
    ]),
}


def versus(ours, upstream, arch='x86_64'):
    """The ratios of ours to upstream's from the figures of each kernel's
    boots (lists of parse() results, in boot order): for each VERSUS
    figure of @arch the mean of each kernel's boots, their ratio, the ratio
    of each pair of boots (ours i to upstream's i: the spread), and whether
    the goal is met (None without a goal); no ratio where a boot lacks the
    figure or upstream's is not above 0."""
    out = {}
    for name, (kind, key), goal, what in VERSUS[arch][2]:
        o = [f.get(kind, {}).get(key) for f in ours]
        u = [f.get(kind, {}).get(key) for f in upstream]
        if not o or not u or None in o + u or min(u) <= 0:
            out[name] = {'what': what, 'ratio': None, 'ours': o, 'upstream': u}
            continue
        ratio = (sum(o) / len(o)) / (sum(u) / len(u))
        pairs = [a / b for a, b in zip(o, u)]
        r = {'what': what, 'ours': o, 'upstream': u, 'ratio': round(ratio, 4),
             'pairs': [round(p, 4) for p in pairs], 'goal': None, 'met': None}
        if goal:
            op, bound = goal
            r['goal'] = '%s %g' % (op, bound)
            r['met'] = ratio <= bound if op == '<=' else ratio >= bound
        out[name] = r
    return out


def plot_versus(res, arch, png):
    """A bar per ratio, the spread of the pairs as an error bar, the goal
    as a mark; False without gnuplot."""
    gnuplot = shutil.which('gnuplot')
    rows = [(n, r) for n, r in res['ratios'].items() if r['ratio'] is not None]
    if not gnuplot or not rows:
        return False
    dat = png[:-4] + '.dat'
    with open(dat, 'w') as f:
        for i, (name, r) in enumerate(rows):
            f.write('%d %s %g %g %g %s\n' % (i, name, r['ratio'], min(r['pairs']), max(r['pairs']),
                                             r['goal'].split()[1] if r['goal'] else 'NaN'))
    cmds = [
        'set terminal pngcairo size 900,500' if 'pngcairo' in terminals(gnuplot)
        else 'set terminal png size 900,500',
        'set output "%s"' % png,
        'set title "ours / upstream (%s), %s, %s guest"'
        % (', '.join(res['kernels']), VERSUS[arch][0], arch),
        'set termoption noenhanced', 'set style fill solid 0.4', 'set boxwidth 0.5',
        'set ylabel "ratio (1 = as upstream)"', 'set grid y', 'set key top left',
        'set xrange [-0.6:%g]' % (len(rows) - 0.4), 'set yrange [0:*]',
    ]
    goal = ('"" using 1:6 title "goal" with points pt 9 ps 2 lc rgb "red", '
            if any(r['goal'] for _, r in rows) else '')
    cmds.append('plot "%s" using 1:3:xtic(2) title "ours / upstream" with boxes, '
                '"" using 1:3:4:5 title "spread of the boot pairs" with yerrorbars pt 0 lc rgb "black", '
                '%s1 notitle with lines dashtype 2 lc rgb "gray"' % (dat, goal))
    subprocess.run([gnuplot], input='\n'.join(cmds) + '\n', text=True, check=True)
    return True


def write_report(outdir, name, data, plotter):
    """OUTDIR/NAME.json of @data and OUTDIR/NAME.png by @plotter(png);
    the paths written, for the report's last line."""
    path = os.path.join(outdir, name + '.json')
    with open(path, 'w') as f:
        json.dump(data, f, indent=1, sort_keys=True)
        f.write('\n')
    png = os.path.join(outdir, name + '.png')
    return path + (', ' + png if plotter(png) else ' (no plot: gnuplot missing)')


def main_versus(outdir, arch, ours_logs, upstream_logs):
    """--versus: the ratios, printed, in OUTDIR/ARCH-versus.json and .png;
    1 if a boot left no figures, or ARCH has no ratios."""
    if arch not in VERSUS:
        print('bench-report: no ratios of ours to upstream\'s for %s' % arch)
        return 1
    model, kinds, _ = VERSUS[arch]
    figs = {}
    for side, logs in (('ours', ours_logs), ('upstream', upstream_logs)):
        figs[side] = []
        for log in logs:
            try:
                with open(log, errors='replace') as f:
                    fig = parse(f.read())
            except OSError as e:
                print('bench-report: %s: %s' % (log, e))
                return 1
            if any(k not in fig for k in kinds):
                print('bench-report: no %s figures in %s' % (model, log))
                return 1
            figs[side].append(fig)
    res = {'ours': figs['ours'], 'upstream': figs['upstream'],
           'kernels': [figs[s][0].get('kernel', {}).get('release', '?') for s in ('ours', 'upstream')],
           'ratios': versus(figs['ours'], figs['upstream'], arch)}
    print('bench-report: %s (%s), ours (%s) / upstream\'s (%s), %d boots of each, alternating:'
          % (arch, model, res['kernels'][0], res['kernels'][1], len(ours_logs)))
    for name, r in res['ratios'].items():
        if r['ratio'] is None:
            print('  %-20s no ratio (%s; ours %s, upstream\'s %s)' % (name, r['what'], r['ours'], r['upstream']))
            continue
        print('  %-20s %.3f (pairs %s; %s) %s'
              % (name, r['ratio'], ' '.join('%.3f' % p for p in r['pairs']),
                 'goal %s: %s' % (r['goal'], 'met' if r['met'] else 'MISSED') if r['goal'] else 'no goal',
                 r['what']))
    os.makedirs(outdir, exist_ok=True)
    print('bench-report: ' + write_report(outdir, arch + '-versus', res,
                                          lambda png: plot_versus(res, arch, png)))
    return 0


def main(argv):
    if len(argv) == 6 and argv[1] == '--versus':
        return main_versus(argv[2], argv[3], argv[4].split(','), argv[5].split(','))
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
        print('bench-report: %s: %s' % (arch, write_report(
            outdir, arch, fig, lambda png, fig=fig, arch=arch: plot(fig, arch, png))))
    return rc


if __name__ == '__main__':
    sys.exit(main(sys.argv))
