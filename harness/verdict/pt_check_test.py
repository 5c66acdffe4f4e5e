#!/usr/bin/env python3
"""Unit test of harness/guests/programs/pt-check.c, the libipt checker of the
x86_64:pmu guest's Intel PT recordings: built here against the host's
libipt, run on perf.data files made here, each with one AUXTRACE stream of
hand-written packets, good ones and ones that break a rule it must catch.

Usage: pt_check_test.py (exit 0: all passed)."""
import os
import struct
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(HERE, "..", "guests", "programs", "pt-check.c")

# Packets (Intel SDM Vol. 3C, "Packet Definitions")
PSB = bytes([0x02, 0x82] * 8)
PSBEND = bytes([0x02, 0x23])
CBR = bytes([0x02, 0x03, 20, 0])
PAD = bytes([0x00])
MODE64 = bytes([0x99, 0x01])
USER_IP = 0x401000
KERNEL_IP = 0xffffffff81000000


def ip_packet(op, ip=None):
    """TIP (0x0d), TIP.PGE (0x11), TIP.PGD (0x01) or FUP (0x1d)."""
    if ip is None:
        return bytes([op])
    return bytes([3 << 5 | op]) + (ip & (1 << 48) - 1).to_bytes(6, "little")


def ip_compressed(op, ip, ipbytes):
    """An IP packet with IPBytes 001, 010 or 100: the low 2, 4 or 6 bytes of
    ip, the rest taken from the last IP ("IP Compression")."""
    n = {1: 2, 2: 4, 4: 6}[ipbytes]
    return bytes([ipbytes << 5 | op]) + (ip & (1 << 8 * n) - 1).to_bytes(n, "little")


OVF = bytes([0x02, 0xf3])


def tip(ip):
    return ip_packet(0x0d, ip)


def pge(ip):
    return ip_packet(0x11, ip)


def pgd(ip=None):
    return ip_packet(0x01, ip)


def fup(ip):
    return ip_packet(0x1d, ip)


def psb_plus(ip=None):
    """PSB+, with MODE.Exec and FUP when packet generation is on."""
    inner = CBR + (MODE64 + fup(ip) if ip is not None else b"")
    return PSB + inner + PSBEND


def aux_record(offset, size, flags):
    """A PERF_RECORD_AUX: the AUX area's data from offset to offset + size,
    flags (1: PERF_AUX_FLAG_TRUNCATED)."""
    return struct.pack("<IHHQQQ", 11, 0, 32, offset, size, flags)


TRUNCATED = 1


def perf_data(chunks):
    """A perf.data file: header, no attrs, a data section of AUXTRACE
    records (idx 0, offsets following on unless a chunk says where); a
    chunk that is ("aux", offset, size, flags) is a PERF_RECORD_AUX."""
    data = b""
    offset = 0
    for chunk in chunks:
        if isinstance(chunk, tuple) and chunk[0] == "aux":
            data += aux_record(*chunk[1:])
            continue
        if isinstance(chunk, tuple):
            offset, chunk = chunk
        rec = struct.pack("<IHH", 71, 0, 48)
        rec += struct.pack("<QQQIIII", len(chunk), offset, 0, 0, 0, 0, 0)
        data += rec + chunk
        offset += len(chunk)
    header_size = 104
    header = b"PERFILE2" + struct.pack("<QQ", header_size, 136)
    header += struct.pack("<QQ", header_size, 0)            # attrs
    header += struct.pack("<QQ", header_size, len(data))    # data
    header += struct.pack("<QQ", 0, 0)                      # event types
    header += bytes(header_size - len(header))
    return header + data


class PtCheckTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.TemporaryDirectory()
        cls.bin = os.path.join(cls.dir.name, "pt-check")
        subprocess.run(["gcc", "-O2", "-Wall", "-Werror", "-o", cls.bin, SRC,
                        "-lipt"], check=True)

    @classmethod
    def tearDownClass(cls):
        cls.dir.cleanup()

    def run_check(self, chunks, *args):
        path = os.path.join(self.dir.name, "perf.data")
        with open(path, "wb") as f:
            f.write(perf_data(chunks))
        r = subprocess.run([self.bin, *args, path], capture_output=True,
                           text=True)
        return r.returncode, r.stdout

    def assert_accepts(self, chunks, *args):
        rc, out = self.run_check(chunks, *args)
        self.assertEqual(rc, 0, out)
        return out

    def assert_rejects(self, chunks, *args):
        rc, out = self.run_check(chunks, *args)
        self.assertEqual(rc, 1, out)
        return out

    # What the model writes at a //u start, a traced stretch and the end
    GOOD = (psb_plus() + MODE64 + pge(USER_IP) + PAD * 5 + fup(USER_IP + 8)
            + pgd() + MODE64 + pge(USER_IP + 16) + psb_plus(USER_IP + 16)
            + tip(USER_IP + 32) + fup(USER_IP + 40) + pgd())

    def test_good_stream(self):
        out = self.assert_accepts([self.GOOD], "-u")
        self.assertIn("psb=2 pge=2 pgd=2 fup=3 tip=1 pad=5 errors=0 excused=0", out)

    def test_timing_and_pip_counted(self):
        # PSB+ with TSC, TMA and a PIP; MTCs between packets; a PIP whose
        # CR3 has bits 11:5 set (PAE paging, not IA-32e) and one with NR
        tsc = bytes([0x19]) + (123456).to_bytes(7, "little")
        tma = bytes([0x02, 0x73, 0x34, 0x12, 0, 0x05, 0])
        mtc = bytes([0x59, 0x35])

        def pip(cr3, nr=0):
            return bytes([0x02, 0x43]) + ((cr3 >> 5) << 1 | nr).to_bytes(6, "little")

        stream = (PSB + tsc + tma + CBR + pip(0x1234000) + MODE64 + fup(KERNEL_IP)
                  + PSBEND + mtc + tip(KERNEL_IP + 8) + pip(0x1234000 | 0x20)
                  + mtc + pip(0x5678000, nr=1) + tip(KERNEL_IP + 16))
        out = self.assert_accepts([stream], "-k")
        self.assertIn("errors=0 excused=0 pip=3 pip_low=2 pip_cr3=3 mtc=2 tma=1", out)

    def test_pip_cr3_distinct(self):
        # PIPs of one CR3 count once, in the stream and in the total
        def pip(cr3):
            return bytes([0x02, 0x43]) + (cr3 >> 5 << 1).to_bytes(6, "little")

        one = PSB + CBR + pip(0x1234000) + PSBEND + pip(0x1234000)
        out = self.assert_accepts([one, (4096, one + pip(0x99000))])
        self.assertIn("pip=2 pip_low=0 pip_cr3=1 ", out)
        self.assertIn("pip=3 pip_low=0 pip_cr3=2 ", out)
        self.assertIn("total bytes=84 psb=2 pge=0 pgd=0 fup=0 tip=0 pad=0 errors=0 "
                      "excused=0 pip=5 pip_low=0 pip_cr3=2 ", out)

    def test_split_across_records(self):
        # a packet cut between two AUXTRACE records of one stream
        self.assert_accepts([self.GOOD[:20], self.GOOD[20:]])

    def test_empty_file(self):
        out = self.assert_accepts([])
        self.assertIn("total bytes=0", out)

    def test_undecodable_byte(self):
        self.assert_rejects([psb_plus() + bytes([0x02, 0xff])])

    def test_pge_twice(self):
        self.assert_rejects([psb_plus() + pge(USER_IP) + pge(USER_IP)])

    def test_pgd_while_off(self):
        self.assert_rejects([psb_plus() + pgd()])

    def test_tip_inside_psb(self):
        self.assert_rejects([PSB + tip(USER_IP) + PSBEND])

    def test_psbend_alone(self):
        self.assert_rejects([psb_plus() + PSBEND])

    def test_lone_fup(self):
        self.assert_rejects([psb_plus(USER_IP) + fup(USER_IP) + fup(USER_IP)])

    def test_mode_not_before_tip(self):
        self.assert_rejects([psb_plus(USER_IP) + MODE64 + pgd()])

    def test_privilege(self):
        stream = psb_plus() + pge(KERNEL_IP) + pgd()
        self.assert_accepts([stream], "-k")
        self.assert_rejects([stream], "-u")
        self.assert_rejects([psb_plus() + pge(USER_IP) + pgd()], "-k")

    def test_compressed_ip_checked(self):
        # after PSB the last IP is 0: 4 bytes of a user IP complete it; a
        # TIP of 2 bytes then stays in the user page. The same 2 bytes
        # after a kernel TIP are a kernel IP, which -u refuses.
        stream = (psb_plus() + MODE64 + ip_compressed(0x11, USER_IP, 2)
                  + ip_compressed(0x0d, USER_IP + 0x40, 1) + pgd())
        out = self.assert_accepts([stream], "-u")
        self.assertIn("ipc=2", out)
        bad = (psb_plus() + MODE64 + pge(KERNEL_IP)
               + ip_compressed(0x0d, USER_IP + 0x40, 1) + pgd())
        self.assert_rejects([bad], "-u")
        self.assert_accepts([bad], "-k")

    def test_compressed_ip_against_unknown(self):
        # a stream that does not start at a PSB: an IP compressed against a
        # last IP not yet known is not checked; once PSB has set it, the
        # same packet is
        lone = ip_compressed(0x0d, KERNEL_IP, 4)
        self.assert_accepts([lone + psb_plus()], "-u")
        self.assert_rejects([psb_plus(USER_IP) + lone], "-u")

    def test_ovf_then_fup(self):
        # OVF, then a FUP alone where generation resumes, then TNT and TIP
        stream = (psb_plus(USER_IP) + tip(USER_IP + 8) + OVF
                  + ip_compressed(0x1d, USER_IP + 0x80, 1)
                  + bytes([0x06]) + tip(USER_IP + 16) + pgd())
        out = self.assert_accepts([stream], "-u")
        self.assertIn("ovf=1", out)

    def test_ovf_ends_psb(self):
        # an overflow inside PSB+ loses its PSBEND
        stream = PSB + CBR + OVF + MODE64 + pge(USER_IP) + pgd()
        self.assert_accepts([stream], "-u")

    def test_ovf_turns_generation_off(self):
        # after OVF without a FUP, a TNT or TIP is out of place until the
        # TIP.PGE
        self.assert_rejects([psb_plus(USER_IP) + OVF + bytes([0x06])])
        self.assert_rejects([psb_plus(USER_IP) + OVF + tip(USER_IP)])
        # the FUP after OVF's binds alone; two more are a FUP after a FUP
        self.assert_rejects([psb_plus(USER_IP) + OVF + fup(USER_IP)
                             + fup(USER_IP) + fup(USER_IP)])

    def test_cut_packet_at_end(self):
        cut = psb_plus() + pge(USER_IP)[:3]
        self.assert_rejects([cut])
        # a snapshot's last packet may be cut
        self.assert_accepts([cut], "-s")

    def test_snapshot_starts_at_psb(self):
        # a snapshot window starts anywhere: bytes before its first PSB
        tail = bytes([0x55, 0x02]) + psb_plus(USER_IP) + fup(USER_IP) + pgd()
        self.assert_accepts([tail], "-s")
        self.assert_rejects([tail])

    # A trace cut by ToPA STOP inside a TIP.PGE, then going on after a
    # gap with a PSB+: the cut packet reads as TIP.PGE, then a TIP.PGE
    # again, while packet generation is on.
    BEFORE_CUT = psb_plus() + pge(USER_IP) + PAD + pge(USER_IP)[:3]
    AFTER_CUT = pge(USER_IP) + PAD * 8 + psb_plus(USER_IP) + fup(USER_IP) + pgd()

    def test_error_at_a_cut_excused(self):
        cut = len(self.BEFORE_CUT)
        stream = self.BEFORE_CUT + self.AFTER_CUT
        self.assert_rejects([stream])
        out = self.assert_accepts([("aux", 0, cut, TRUNCATED), stream])
        self.assertIn("errors=0 excused=1", out)
        # the AUX record may come after the data it describes
        self.assert_accepts([stream, ("aux", 0, cut, TRUNCATED)])
        # not truncated: no cut
        self.assert_rejects([("aux", 0, cut, 0), stream])

    def test_error_away_from_a_cut(self):
        # a cut where the trace decodes, and an error after the next PSB:
        # a cut excuses nothing but the error at itself
        cut = len(self.BEFORE_CUT)
        stream = (self.BEFORE_CUT + self.AFTER_CUT + psb_plus() + pge(USER_IP)
                  + pge(USER_IP))
        out = self.assert_rejects([("aux", 0, cut, TRUNCATED), stream])
        self.assertIn("errors=1 excused=1", out)
        good = psb_plus() + pge(USER_IP) + pgd()
        bad = good + psb_plus() + pge(USER_IP) + pge(USER_IP)
        self.assert_rejects([("aux", 0, len(good), TRUNCATED), bad])

    def test_padding_between_records(self):
        # perf pads a record to 8 bytes; the next starts at the true offset
        first = psb_plus() + pge(USER_IP) + PAD    # 29 bytes
        padded = first + bytes(3)
        out = self.assert_accepts([(0, padded), (len(first), fup(USER_IP)[:3]),
                                   (len(first) + 3, fup(USER_IP)[3:] + pgd())])
        self.assertEqual(out.count("stream idx=0"), 1)

    def test_gap_starts_a_stream(self):
        # offsets that do not follow on: the next record is a new stream,
        # whose state is unknown (a TIP.PGD is fine there)
        out = self.assert_accepts([psb_plus() + pge(USER_IP),
                                   (4096, pgd() + psb_plus())])
        self.assertEqual(out.count("stream idx=0"), 2)

    def test_resync_after_error(self):
        stream = (psb_plus() + pgd() + PAD * 3 + psb_plus()
                  + pge(USER_IP) + pgd())
        out = self.assert_rejects([stream])
        self.assertIn("errors=1", out)


if __name__ == "__main__":
    unittest.main(verbosity=1)
