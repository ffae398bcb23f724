#!/usr/bin/env bash
# The PDF tests read rendered documents with a real PDF parser: `pdftotext` from Debian's
# poppler-utils, installed with apt-get when missing (a step of scripts/test.sh; idempotent).
set -euo pipefail
if command -v pdftotext >/dev/null 2>&1; then exit 0; fi
echo "[pdftools] installing Debian's poppler-utils (pdftotext)"
if [[ $(id -u) -eq 0 ]]; then SUDO=""; else SUDO="sudo"; fi
$SUDO apt-get update -qq >/dev/null
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq poppler-utils >/dev/null
command -v pdftotext >/dev/null
