#!/bin/sh
# Regenerates the PDFs in ../pdf from the sources in this folder. The PDFs
# are committed and tests never run this; after regenerating, check the
# texts expected in extract/pdf_test.go. Each PDF comes from a different
# producer, because each lays text out differently: LibreOffice (a text
# object per line, CJK as ActualText when no CJK font is installed),
# Ghostscript (spaces made by character and word spacing), cairo (lines
# moved with Td) and Chromium/Skia (subset CID fonts).
# Needs: libreoffice-writer-nogui ghostscript groff librsvg2-bin chromium.
set -eu
src=$(cd "$(dirname "$0")" && pwd)
out=$src/../pdf
soffice --headless --convert-to pdf:writer_web_pdf_Export --outdir "$out" "$src/report.html" >/dev/null 2>&1
groff -Tps "$src/justified.tr" | ps2pdf - "$out/justified.pdf"
rsvg-convert -f pdf -o "$out/cairo.pdf" "$src/cairo.svg"
chromium --headless --no-sandbox --disable-gpu --no-pdf-header-footer --print-to-pdf="$out/chromium.pdf" "file://$src/chromium.html" 2>/dev/null
cd "$out"
gs -q -dNOPAUSE -dBATCH -sDEVICE=pdfwrite -sOwnerPassword=owner -sUserPassword=secret -dEncryptionR=3 -dKeyLength=128 -sOutputFile=encrypted.pdf justified.pdf
gs -q -dNOPAUSE -dBATCH -sDEVICE=pdfwrite -sOwnerPassword=owner -dEncryptionR=3 -dKeyLength=128 -dPermissions=-3904 -sOutputFile=owner-locked.pdf justified.pdf
