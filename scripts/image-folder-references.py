#!/usr/bin/python3
"""Reference answers of real PIL and torchvision for the image-folder reader's tests.

Run by scripts/make-image-folder-references.ts (npm run fixtures:image-folder), with Debian 12's
/usr/bin/python3 and its python3-pil 9.4.0 and python3-torchvision 0.14.1
(apt-get install -y python3-pil python3-torchvision). Two steps:

  images OUT    writes the small fixture images, one per format and case, into OUT: each made
                by PIL's own writers from seeded numpy arrays, or, where PIL writes no such
                file (16-bit PNG with colour, 16-bit PPM, plain P1-P3, 16-bit 5-6-5 BMP,
                top-down BMP, BMP with a gap before its pixels, a PNG header claiming
                16000x16000), byte by byte here.
  answers ROOT IMAGES OUT
                reads the folder ROOT (built by test/support/image-folder-every-case.ts) as
                torchvision does: ImageFolder(ROOT) for the classes, the files, their order
                and class indices (names as bytes, hex); then each listed file that is a
                regular file with default_loader (PIL Image.open + convert('RGB')): the sha256 of its
                decoded pixels, and transforms.Resize((h, w)) of it
                (PIL bilinear with antialias) as a PNG in OUT/resized-HxW/. A file that is not
                regular (a FIFO would block torchvision forever) is not opened; a file PIL
                cannot open is listed with its error. Writes OUT/torchvision.json.
"""
import hashlib
import io
import json
import os
import stat
import struct
import sys
import zlib

import numpy as np
import PIL
import torchvision
from PIL import Image
from torchvision import transforms
from torchvision.datasets import ImageFolder
from torchvision.datasets.folder import default_loader

# The sizes every image is resized to (all of them), and the issue's own 224x224 (a few).
SMALL = (56, 72)
LARGE = (224, 224)
LARGE_FOR = {"strip_4000x10.png", "tall_13x199.png", "scan_1bit.png"}


def pattern(h, w, channels, seed, noise=8):
    """Smooth gradients with hard-edged blocks (and a little seeded noise): what a resize filter meets."""
    rng = np.random.default_rng(seed)
    y, x = np.mgrid[0:h, 0:w]
    planes = []
    for c in range(channels):
        base = (x * (97 + 31 * c) / max(w, 1) + y * (53 + 17 * c) / max(h, 1)) % 256
        blocks = ((x // max(1, w // 7) + y // max(1, h // 5) + c) % 3) * 40
        planes.append((base + blocks + rng.integers(0, noise, (h, w))) % 256)
    return np.stack(planes, axis=-1).astype(np.uint8) if channels > 1 else planes[0].astype(np.uint8)


def png_bytes(arr, color_type, depth, claimed=None):
    """A PNG written here (PIL writes no 16-bit colour PNG): filter 0 rows, one IDAT; IHDR may claim another size."""
    h, w = arr.shape[:2]
    dtype = ">u2" if depth == 16 else "u1"
    raw = b"".join(b"\0" + arr[y].astype(dtype).tobytes() for y in range(h))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    ihdr = struct.pack(">IIBBBBB", *(claimed or (w, h)), depth, color_type, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")


def bmp_bytes(rows_bgr_bytes, w, h, bits, compression=0, masks=b"", top_down=False, gap=0):
    """A BMP with a 40-byte header written here: 16-bit 5-6-5, top-down, a gap before the pixels."""
    stride = ((w * bits + 31) // 32) * 4
    data = b"".join(r + b"\0" * (stride - len(r)) for r in rows_bgr_bytes)
    offset = 14 + 40 + len(masks) + gap
    header = struct.pack("<IiiHHIIiiII", 40, w, -h if top_down else h, 1, bits, compression, len(data), 2835, 2835, 0, 0)
    return b"BM" + struct.pack("<IHHI", offset + len(data), 0, 0, offset) + header + masks + b"\0" * gap + data


def make_images(out):
    os.makedirs(out, exist_ok=True)

    def save(name, im, **kw):
        im.save(os.path.join(out, name), **kw)

    def put(name, data):
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)

    rgb = pattern(48, 64, 3, 1)
    save("jpeg_baseline.jpg", Image.fromarray(rgb), quality=90)
    save("jpeg_progressive.jpg", Image.fromarray(pattern(40, 56, 3, 2)), quality=85, progressive=True)
    save("jpeg_grey.jpg", Image.fromarray(pattern(33, 47, 1, 3)), quality=90)
    save("jpeg_cmyk.jpg", Image.fromarray(pattern(30, 40, 4, 4), "CMYK"), quality=90)
    save("png_rgb.png", Image.fromarray(pattern(37, 53, 3, 5)))
    save("png_rgba.png", Image.fromarray(pattern(29, 31, 4, 6), "RGBA"))
    save("png_grey.png", Image.fromarray(pattern(27, 45, 1, 7)))
    save("png_palette.png", Image.fromarray(pattern(35, 41, 3, 8)).convert("P", palette=Image.ADAPTIVE, colors=17))
    # A "scan": black text-like bars on white, 1 bit a pixel (the worst shrink: 75 / 12.3 off).
    scan = np.full((200, 300), 255, np.uint8)
    for r in range(12):
        for k in range(9):
            scan[12 + r * 15 : 20 + r * 15, 10 + k * 31 : 10 + k * 31 + 7 + (r * k) % 19] = 0
    save("scan_1bit.png", Image.fromarray(scan).convert("1"))
    save("png16_grey.png", Image.fromarray((pattern(21, 26, 1, 9).astype(np.uint16) * 257 // 3 + np.arange(26, dtype=np.uint16) * 7).astype(np.uint16)))
    save("png16_grey_low.png", Image.fromarray((pattern(19, 23, 1, 10).astype(np.uint16) + 40).astype(np.uint16)))
    sixteen = (pattern(18, 22, 4, 11).astype(np.uint16) * 251 + 3).astype(np.uint16)
    put("png16_rgb.png", png_bytes(sixteen[:, :, :3], 2, 16))
    put("png16_rgba.png", png_bytes(sixteen, 6, 16))
    put("png16_la.png", png_bytes(sixteen[:, :, :2], 4, 16))
    # A GIF of two frames named .png: PIL reads by content, torchvision by the name; the first frame counts.
    frames = [Image.fromarray(pattern(26, 34, 3, 12 + k)).convert("P", palette=Image.ADAPTIVE, colors=32) for k in range(2)]
    buf = io.BytesIO()
    frames[0].save(buf, "GIF", save_all=True, append_images=frames[1:], duration=100, loop=0)
    put("gif_animated.png", buf.getvalue())
    save("webp_lossless.webp", Image.fromarray(pattern(24, 30, 3, 14)), lossless=True)
    save("webp_lossy.webp", Image.fromarray(pattern(24, 30, 3, 15)), quality=80)
    save("bmp_24.bmp", Image.fromarray(pattern(23, 35, 3, 16)))
    save("bmp_8_palette.bmp", Image.fromarray(pattern(22, 29, 3, 17)).convert("P", palette=Image.ADAPTIVE, colors=20))
    save("bmp_8_grey.bmp", Image.fromarray(pattern(17, 21, 1, 18)))
    save("bmp_1.bmp", Image.fromarray(scan[:40, :61]).convert("1"))
    save("bmp_32_rgba.bmp", Image.fromarray(pattern(19, 27, 4, 19), "RGBA"))
    p = pattern(13, 17, 3, 20)
    rows = lambda a: [a[y, :, ::-1].tobytes() for y in range(a.shape[0])]  # noqa: E731
    put("bmp_24_topdown.bmp", bmp_bytes(rows(p), 17, 13, 24, top_down=True))
    put("bmp_24_gap.bmp", bmp_bytes(rows(p)[::-1], 17, 13, 24, gap=6))
    v = pattern(11, 15, 3, 21).astype(np.uint16)
    word = ((v[:, :, 0] >> 3) << 11) | ((v[:, :, 1] >> 2) << 5) | (v[:, :, 2] >> 3)
    masks = struct.pack("<III", 0xF800, 0x7E0, 0x1F)
    put("bmp_16_565.bmp", bmp_bytes([word[y].astype("<u2").tobytes() for y in range(10, -1, -1)], 15, 11, 16, compression=3, masks=masks))
    word555 = ((v[:, :, 0] >> 3) << 10) | ((v[:, :, 1] >> 3) << 5) | (v[:, :, 2] >> 3)
    put("bmp_16_555.bmp", bmp_bytes([word555[y].astype("<u2").tobytes() for y in range(10, -1, -1)], 15, 11, 16))
    save("ppm_p6.ppm", Image.fromarray(pattern(20, 24, 3, 22)))
    save("pgm_p5.pgm", Image.fromarray(pattern(18, 26, 1, 23)))
    save("pgm16_p5.pgm", Image.fromarray((pattern(16, 20, 1, 24).astype(np.uint16) * 3).astype(np.uint16)).convert("I"))
    g = pattern(9, 12, 1, 25).astype(np.uint16)
    put("pgm_maxval1000.pgm", b"P5\n12 9\n1000\n" + (g * 1000 // 255).astype(">u2").tobytes())
    put("pgm_maxval100.pgm", b"P5 12 9 100\n" + (g * 100 // 255).astype("u1").tobytes())
    c = pattern(8, 10, 3, 26).astype(np.uint16)
    put("ppm16_p6.ppm", b"P6\n# sixteen bits\n10 8\n65535\n" + (c * 257 + 100).astype(">u2").tobytes())
    put("pbm_p4.ppm", b"P4\n61 40\n" + np.packbits(scan[:40, :61] == 0, axis=1).tobytes())
    put("pbm_p1.pgm", b"P1\n# plain\n7 3\n" + b"\n".join(b" ".join(b"1" if (x + y) % 3 == 0 else b"0" for x in range(7)) for y in range(3)) + b"\n")
    put("pgm_p2.pgm", b"P2\n5 4\n# maxval 200\n200\n" + b"\n".join(b" ".join(str((x * 53 + y * 29) % 201).encode() for x in range(5)) for y in range(4)) + b"\n")
    put("ppm_p3.ppm", b"P3 4 3 255 " + b" ".join(str((i * 37) % 256).encode() for i in range(36)) + b"\n")
    save("tiff_rgb.tif", Image.fromarray(pattern(21, 25, 3, 27)))
    save("tiff_grey_lzw.tiff", Image.fromarray(pattern(19, 23, 1, 28)), compression="tiff_lzw")
    save("tiff_palette.tif", Image.fromarray(pattern(18, 22, 3, 29)).convert("P", palette=Image.ADAPTIVE, colors=12))
    save("tiff16_grey.tif", Image.fromarray((pattern(15, 17, 1, 30).astype(np.uint16) * 2).astype(np.uint16)))
    save("one_1x1.png", Image.fromarray(np.array([[[200, 30, 90]]], np.uint8)))
    save("tall_13x199.png", Image.fromarray(pattern(199, 13, 3, 31)))
    save("strip_4000x10.png", Image.fromarray(pattern(10, 4000, 3, 32, noise=1)))
    jpeg = open(os.path.join(out, "jpeg_baseline.jpg"), "rb").read()
    put("broken_truncated.jpg", jpeg[: len(jpeg) // 2])
    put("broken_text.png", b"this is not an image\n")
    put("broken_empty.bmp", b"")
    # IHDR says 16000x16000 (256,000,000 pixels): read from the header, never decoded.
    put("huge_16000x16000.png", png_bytes(np.zeros((1, 1), np.uint8), 0, 8, claimed=(16000, 16000)))


def answers(root, images, out):
    rootb = os.fsencode(root)
    # The folder holds copies of the images under other names: each is known by its content.
    by_content = {}
    for name in sorted(os.listdir(images)):
        with open(os.path.join(images, name), "rb") as f:
            by_content.setdefault(hashlib.sha256(f.read()).hexdigest(), name)
    ds = ImageFolder(root)
    rel = lambda p: os.fsencode(p)[len(rootb) + 1 :].hex()  # noqa: E731
    files = []
    for path, target in ds.samples:
        entry = {"path": rel(path), "class": target}
        st = os.lstat(path)
        if stat.S_ISLNK(st.st_mode) and not os.path.exists(path):
            entry["pil"] = "FileNotFoundError (dangling link)"
        elif not stat.S_ISREG(os.stat(path).st_mode):
            entry["pil"] = "not a regular file: opening it would block or fail"
        else:
            try:
                im = default_loader(path)
            except Exception as e:  # noqa: BLE001
                message = str(e).splitlines()[0].replace(root, "<root>") if str(e) else ""
                entry["pil"] = f"{type(e).__name__}: {message}"
            else:
                with open(path, "rb") as f:
                    name = by_content[hashlib.sha256(f.read()).hexdigest()]
                entry.update({"source": name, "width": im.width, "height": im.height, "sha256": hashlib.sha256(im.tobytes()).hexdigest()})
                sizes = [SMALL] + ([LARGE] if name in LARGE_FOR else [])
                for h, w in sizes:
                    folder = os.path.join(out, f"resized-{h}x{w}")
                    os.makedirs(folder, exist_ok=True)
                    target_png = os.path.join(folder, name + ".png")
                    if not os.path.exists(target_png):
                        transforms.Resize((h, w))(im).save(target_png, optimize=True)
        files.append(entry)
    result = {
        "made_by": f"scripts/image-folder-references.py with PIL {PIL.__version__}, torchvision {torchvision.__version__}",
        "resized": [list(SMALL), list(LARGE)],
        "large_for": sorted(LARGE_FOR),
        "classes": [os.fsencode(c).hex() for c in ds.classes],
        "files": files,
    }
    with open(os.path.join(out, "torchvision.json"), "w") as f:
        json.dump(result, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    if sys.argv[1] == "images":
        make_images(sys.argv[2])
    elif sys.argv[1] == "answers":
        answers(sys.argv[2], sys.argv[3], sys.argv[4])
    else:
        sys.exit("usage: image-folder-references.py images OUT | answers ROOT IMAGES OUT")
