#!/usr/bin/env bash
# Build the exact-cover peers of benches/cover_bench.py OUTSIDE the repository:
#   - Knuth's DLX1, DLX2 and SSXCC (exact cover), DLX3 and SSMCC (with bounds: his
#     multiplicities), DLX5 (costs) and DLX6 (the memo) from their CWEB sources, tangled with ctangle
#     (Debian's texlive-binaries) and compiled with gcc -O3 -march=native;
#   - PyPI's exact-cover (C dancing links) and xcover (numba dancing cells) in a venv.
# Then write the benchmark instances (benches/cover_instances.py) next to them.
#
#   benches/peers/build_cover_peers.sh [PEERS_DIR]      # default: /work/peers
#
# Layout made: PEERS_DIR/{src,bin/{dlx1,dlx2,dlx3,dlx5,dlx6,ssxcc,ssmcc},venv,instances}.
# Manual only (it downloads and compiles); CI never runs it.
#
# The CWEB sources: Knuth's programs as mirrored in the GitHub repository
# shreevatsa/knuth-literate-programs (programs-orig/{dlx1,dlx2,dlx3,dlx5,dlx6,ssxcc,ssmcc}.w;
# gb_flip.w and
# boilerplate.w of the Stanford GraphBase, which the three include for their
# optional randomisation, from other_categorize_later/sgb/). Pass KNUTH_REPO=DIR to use
# a clone you already have; otherwise it is cloned (shallow) into PEERS_DIR/src.
set -euo pipefail

PEERS=${1:-/work/peers}
REPO_ROOT=$(cd "$(dirname "$0")/../.." && pwd)
KNUTH_URL=https://github.com/shreevatsa/knuth-literate-programs
KNUTH_COMMIT=${KNUTH_COMMIT:-7329bc594a3afc004ef850241abe6c399dc05aa8}
PYTHON=${PYTHON:-python3}

mkdir -p "$PEERS"/src "$PEERS"/bin "$PEERS"/instances
cd "$PEERS"/src

# ctangle: from TeX Live's binaries (Debian/Ubuntu: texlive-binaries). Without root,
# unpack the package instead of installing it.
if ! command -v ctangle >/dev/null; then
  if [ "$(id -u)" = 0 ]; then
    apt-get install -y texlive-binaries
  else
    apt-get download texlive-binaries
    dpkg -x texlive-binaries_*.deb "$PEERS"/texlive
    export PATH="$PEERS/texlive/usr/bin:$PATH"
    export LD_LIBRARY_PATH="$PEERS/texlive/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}"
  fi
fi

# The sources, pinned to one commit of the mirror.
if [ -n "${KNUTH_REPO:-}" ]; then
  show() { git -C "$KNUTH_REPO" show "$KNUTH_COMMIT:$1"; }
else
  if [ ! -d knuth-literate-programs ]; then
    git clone --filter=blob:none --no-checkout "$KNUTH_URL" knuth-literate-programs
  fi
  show() { git -C knuth-literate-programs show "$KNUTH_COMMIT:$1"; }
fi
PROGRAMS="dlx1 dlx2 dlx3 dlx5 dlx6 ssxcc ssmcc"
for p in $PROGRAMS; do show "programs-orig/$p.w" > "$p.w"; done
show other_categorize_later/sgb/gb_flip.w > gb_flip.w
show other_categorize_later/sgb/boilerplate.w > boilerplate.w

ctangle gb_flip.w
for p in $PROGRAMS; do
  ctangle "$p.w"
  # -w: Knuth's C is K&R-era (implicit int main); the warnings say nothing new.
  gcc -O3 -march=native -w -o "$PEERS/bin/$p" "$p.c" gb_flip.c
done
{ echo "knuth-literate-programs $KNUTH_COMMIT"; ctangle --version | head -1; gcc --version | head -1; } > "$PEERS/BUILD_INFO"

# The Python peers, in their own venv so their numpy/numba never meet ours.
if [ ! -x "$PEERS/venv/bin/python" ]; then
  "$PYTHON" -m venv "$PEERS/venv"
fi
"$PEERS/venv/bin/pip" install -q exact-cover xcover
"$PEERS/venv/bin/pip" freeze | grep -iE '^(exact.cover|xcover|numba|numpy)=' > "$PEERS/venv/VERSIONS"

"$PYTHON" "$REPO_ROOT/benches/cover_instances.py" "$PEERS/instances"
echo "peers in $PEERS: $(ls "$PEERS/bin" | tr '\n' ' ')"
