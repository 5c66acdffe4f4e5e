#!/usr/bin/env python3
"""Unit test of bench-report.py on a small synthetic bench log.

Usage: bench_report_test.py [unittest options]. No guest; gnuplot is used
if the machine has it (the plot test skips otherwise).
"""

import importlib.util
import json
import os
import shutil
import sys
import tempfile
import unittest

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location('bench_report',
                                               os.path.join(HERE, 'bench-report.py'))
bench_report = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench_report)

# What harness/guests/in-guest/bench and bench-dtl print, figures interleaved with
# the lines for people and the console's noise.
LOG = """\
HARNESS: demo begin
kernel: 6.1.192-bench (bench kernel: no lockdep, KASAN, kmemleak or UBSAN)
BENCH-DATA kernel release=6.1.192-bench bench_kernel=1
BENCH-DATA guest arch=x86_64 cpus=2
BENCH-DATA memcpy bps=1600000000
BENCH-DATA tmpfs bps=700000000
  perf record default:
BENCH-DATA point name=default offered_mbs=25 captured_bps=25000000 loss=0
BENCH-DATA point name=default offered_mbs=50 captured_bps=49000000 loss=1
[   12.345678] random: crng init done
BENCH-DATA point name=default offered_mbs=100000 captured_bps=500000000 loss=1
BENCH-DATA best name=default offered_mbs=25 captured_bps=25000000 ratio=0.0156 flood_bps=500000000 flood_ratio=0.3125
BENCH-DATA point name=-m,64M offered_mbs=25 captured_bps=25000000 loss=0
BENCH-DATA best name=-z failed=1
BENCH-DATA trigger plain_ns=300 untagged_ns=4000 noop_ns=4100 pause_resume_ns=8000 noop_ratio=1.0250 pause_resume_ratio=2.0000
BENCH-DATA dtl_cost interval=default base_share=0.03 empty_share=0.031 full_share=0.04 empty_cost=0.001 full_cost=0.01
BENCH-DATA dtl_cost interval=1000000 base_share=0.03 empty_share=0.05 full_share=0.13 empty_cost=0.02 full_cost=0.1
BENCH-DATA dtl_point per_poll=85 injected=100 seconds=2.0 rate=50 captured=100 lost=0 partial=0
BENCH-DATA dtl_best per_poll=85 rate=50
HARNESS: demo end
"""


class Parse(unittest.TestCase):
    def setUp(self):
        self.fig = bench_report.parse(LOG)

    def test_scalars(self):
        self.assertEqual(self.fig['kernel'], {'release': '6.1.192-bench', 'bench_kernel': 1})
        self.assertEqual(self.fig['memcpy']['bps'], 1600000000)
        self.assertEqual(self.fig['trigger']['noop_ratio'], 1.025)

    def test_capture_series(self):
        cap = self.fig['capture']
        self.assertEqual(list(cap), ['default', '-m,64M', '-z'])
        self.assertEqual([p['offered_mbs'] for p in cap['default']['points']], [25, 50, 100000])
        self.assertEqual(cap['default']['points'][1]['loss'], 1)
        self.assertEqual(cap['default']['best']['flood_ratio'], 0.3125)
        self.assertEqual(cap['-z'], {'points': [], 'best': {'failed': 1}})

    def test_vpa_dtl(self):
        dtl = self.fig['vpa_dtl']
        self.assertEqual(sorted(dtl['cost']), ['1000000', 'default'])
        self.assertEqual(dtl['cost']['default']['empty_cost'], 0.001)
        self.assertEqual(dtl['points'][0]['per_poll'], 85)
        self.assertEqual(dtl['best']['rate'], 50)

    def test_no_vpa_dtl_key_without_figures(self):
        fig = bench_report.parse('BENCH-DATA memcpy bps=1\n')
        self.assertNotIn('vpa_dtl', fig)


class Main(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.log = os.path.join(self.dir, 'bench.log')
        with open(self.log, 'w') as f:
            f.write(LOG)

    def tearDown(self):
        shutil.rmtree(self.dir)

    def run_main(self, *specs):
        out = os.path.join(self.dir, 'out')
        return bench_report.main(['bench-report.py', out] + list(specs)), out

    def test_json_written(self):
        rc, out = self.run_main('x86_64=' + self.log)
        self.assertEqual(rc, 0)
        with open(os.path.join(out, 'x86_64.json')) as f:
            self.assertEqual(json.load(f)['memcpy']['bps'], 1600000000)

    def test_missing_or_empty_log_fails(self):
        empty = os.path.join(self.dir, 'empty.log')
        open(empty, 'w').close()
        self.assertEqual(self.run_main('x86_64=' + empty)[0], 1)
        self.assertEqual(self.run_main('x86_64=' + empty + '.none')[0], 1)

    @unittest.skipUnless(shutil.which('gnuplot'), 'no gnuplot')
    def test_plot_is_a_png(self):
        rc, out = self.run_main('x86_64=' + self.log)
        self.assertEqual(rc, 0)
        with open(os.path.join(out, 'x86_64.png'), 'rb') as f:
            self.assertEqual(f.read(8), b'\x89PNG\r\n\x1a\n')



def pt_log(release, noop, u_pr, k_pr, bps):
    """A bench-pt log (harness/guests/in-guest/bench-pt) with these figures."""
    return ('HARNESS: demo begin\nBENCH-DATA kernel release=%s\n'
            'BENCH-DATA pt_trigger loops=10000 rounds=5 u_untagged_ns=10000 noop_ratio=%s '
            'u_pause_resume_ratio=%s k_pause_resume_ratio=%s\n'
            'BENCH-DATA pt_capture rounds=5 bytes=8000000 bps=%s lost_runs=0\n'
            'HARNESS: demo end\n' % (release, noop, u_pr, k_pr, bps))


class Versus(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.dir)

    def write(self, name, text):
        path = os.path.join(self.dir, name)
        with open(path, 'w') as f:
            f.write(text)
        return path

    def test_ratios_of_the_means_and_pairs(self):
        ours = [bench_report.parse(pt_log('6.1-bench', 1.02, 2.0, 3.0, 900)),
                bench_report.parse(pt_log('6.1-bench', 1.0, 2.2, 3.0, 1100))]
        up = [bench_report.parse(pt_log('7.2-bench', 1.01, 2.0, 2.0, 1000)),
              bench_report.parse(pt_log('7.2-bench', 1.01, 2.0, 2.0, 1000))]
        r = bench_report.versus(ours, up)
        self.assertAlmostEqual(r['trigger_noop']['ratio'], 1.0)
        self.assertTrue(r['trigger_noop']['met'])
        self.assertAlmostEqual(r['pause_resume_u']['ratio'], 1.05)
        self.assertEqual(r['pause_resume_u']['pairs'], [1.0, 1.1])
        self.assertTrue(r['pause_resume_u']['met'])
        self.assertAlmostEqual(r['pause_resume_k']['ratio'], 1.5)
        self.assertFalse(r['pause_resume_k']['met'])
        self.assertEqual(r['capture']['pairs'], [0.9, 1.1])
        self.assertTrue(r['capture']['met'])

    def test_missing_figure_is_no_ratio(self):
        ours = [bench_report.parse(pt_log('a', 1, 1, 1, 1))]
        up = [bench_report.parse('BENCH-DATA pt_capture bps=1\n')]
        r = bench_report.versus(ours, up)
        self.assertIsNone(r['trigger_noop']['ratio'])
        self.assertEqual(r['capture']['ratio'], 1.0)

    def test_main_writes_json_and_fails_on_a_boot_without_figures(self):
        o = self.write('o.log', pt_log('6.1-bench', 1.0, 2.0, 2.0, 1000))
        u = self.write('u.log', pt_log('7.2-bench', 1.0, 2.0, 2.0, 1000))
        out = os.path.join(self.dir, 'out')
        self.assertEqual(bench_report.main(['b', '--versus', out, 'x86_64', o, u]), 0)
        with open(os.path.join(out, 'x86_64-versus.json')) as f:
            res = json.load(f)
        self.assertEqual(res['kernels'], ['6.1-bench', '7.2-bench'])
        self.assertEqual(res['ratios']['capture']['ratio'], 1.0)
        empty = self.write('e.log', 'HARNESS: demo begin\n')
        self.assertEqual(bench_report.main(['b', '--versus', out, 'x86_64', o, empty]), 1)

    def test_dtl_ratios_have_no_goal_and_need_a_positive_upstream(self):
        def dtl(release, cost, cost1, entries):
            return ('BENCH-DATA kernel release=%s\nBENCH-DATA dtlhv seconds=5 rounds=3 '
                    'default_base=0.001 default_polled=0.003 default_cost=%s '
                    'default_entries=%s 1000000_cost=%s\n' % (release, cost, entries, cost1))
        ours = [bench_report.parse(dtl('6.1-bench', 0.002, 0.01, 90))]
        up = [bench_report.parse(dtl('7.2-bench', 0.004, -0.0001, 100))]
        r = bench_report.versus(ours, up, 'ppc64le')
        self.assertAlmostEqual(r['dtl_poll_default']['ratio'], 0.5)
        self.assertIsNone(r['dtl_poll_default']['goal'])
        self.assertIsNone(r['dtl_poll_default']['met'])
        self.assertIsNone(r['dtl_poll_1ms']['ratio'])
        self.assertAlmostEqual(r['dtl_entries_default']['ratio'], 0.9)
        o = self.write('o.log', dtl('6.1-bench', 0.002, 0.01, 90))
        u = self.write('u.log', dtl('7.2-bench', 0.004, 0.01, 100))
        out = os.path.join(self.dir, 'out')
        self.assertEqual(bench_report.main(['b', '--versus', out, 'ppc64le', o, u]), 0)
        with open(os.path.join(out, 'ppc64le-versus.json')) as f:
            self.assertEqual(json.load(f)['ratios']['dtl_poll_1ms']['ratio'], 1.0)
        pt = self.write('pt.log', pt_log('7.2-bench', 1.0, 2.0, 2.0, 1000))
        self.assertEqual(bench_report.main(['b', '--versus', out, 'ppc64le', o, pt]), 1)
        self.assertEqual(bench_report.main(['b', '--versus', out, 'arm64', o, u]), 1)


if __name__ == '__main__':
    unittest.main()
