package chat

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/jpeg"
	"image/png"
	"math/rand/v2"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
)

// TestModelImageScalesLargeImages: an image within the limits goes as it
// came; a wider or taller one is scaled to MaxImageSide on its long side
// (aspect ratio kept), one too many bytes is shrunk until it fits, and
// what cannot be an image says why.
func TestModelImageScalesLargeImages(t *testing.T) {
	encode := func(w, h int, noisy bool, format string) mcp.ImageContent {
		img := image.NewRGBA(image.Rect(0, 0, w, h))
		r := rand.New(rand.NewPCG(1, 2))
		for i := 0; i < len(img.Pix); i += 4 { // Pix directly: Set is slow under -race
			x, y := (i/4)%w, (i/4)/w
			c := [4]uint8{uint8(x), uint8(y), 100, 255}
			if noisy {
				c = [4]uint8{uint8(r.IntN(256)), uint8(r.IntN(256)), uint8(r.IntN(256)), 255}
			}
			copy(img.Pix[i:], c[:])
		}
		var buf bytes.Buffer
		var err error
		if format == "image/png" {
			err = png.Encode(&buf, img)
		} else {
			err = jpeg.Encode(&buf, img, &jpeg.Options{Quality: 100})
		}
		if err != nil {
			t.Fatal(err)
		}
		return mcp.ImageContent{Type: "image", MIMEType: format, Data: base64.StdEncoding.EncodeToString(buf.Bytes())}
	}
	size := func(t *testing.T, data string) (int, int, string, int) {
		raw, err := base64.StdEncoding.DecodeString(data)
		if err != nil {
			t.Fatal(err)
		}
		cfg, format, err := image.DecodeConfig(bytes.NewReader(raw))
		if err != nil {
			t.Fatal(err)
		}
		return cfg.Width, cfg.Height, format, len(raw)
	}
	prevSide, prevBytes := MaxImageSide, MaxImageBytes
	t.Cleanup(func() { MaxImageSide, MaxImageBytes = prevSide, prevBytes })
	MaxImageSide = 160 // small images keep the test quick under -race
	small := encode(40, 20, false, "image/png")
	if got, err := modelImage(small); err != nil || got.Data != small.Data || got.MIMEType != "image/png" {
		t.Errorf("a small image changed: %v", err)
	}
	wide, err := modelImage(encode(600, 200, false, "image/png"))
	if err != nil {
		t.Fatal(err)
	}
	if w, h, format, _ := size(t, wide.Data); w != MaxImageSide || h != 200*MaxImageSide/600 || format != "png" || wide.MIMEType != "image/png" {
		t.Errorf("600x200 PNG became %dx%d %s (%s)", w, h, format, wide.MIMEType)
	}
	tall, err := modelImage(encode(100, 400, false, "image/jpeg"))
	if err != nil {
		t.Fatal(err)
	}
	if w, h, format, _ := size(t, tall.Data); h != MaxImageSide || w != 100*MaxImageSide/400 || format != "jpeg" {
		t.Errorf("100x400 JPEG became %dx%d %s", w, h, format)
	}

	MaxImageBytes = 12_000
	heavy := encode(150, 150, true, "image/jpeg") // noise does not compress
	if _, _, _, n := size(t, heavy.Data); n <= MaxImageBytes {
		t.Fatalf("test image is only %d bytes", n)
	}
	fit, err := modelImage(heavy)
	if err != nil {
		t.Fatal(err)
	}
	if w, h, _, n := size(t, fit.Data); n > MaxImageBytes || w >= 150 || w != h {
		t.Errorf("a %d-byte limit gave %dx%d of %d bytes", MaxImageBytes, w, h, n)
	}

	for _, bad := range []mcp.ImageContent{
		{MIMEType: "image/svg+xml", Data: base64.StdEncoding.EncodeToString([]byte("<svg/>"))},
		{MIMEType: "image/png", Data: "not base64!"},
		{MIMEType: "image/png", Data: base64.StdEncoding.EncodeToString([]byte("not a png"))},
	} {
		if _, err := modelImage(bad); err == nil {
			t.Errorf("%s %q was accepted", bad.MIMEType, bad.Data)
		}
	}
}
