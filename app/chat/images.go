package chat

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"image"
	"image/draw"
	_ "image/gif" // decode GIF to scale it
	"image/jpeg"
	"image/png"
	"strings"

	xdraw "golang.org/x/image/draw"
	_ "golang.org/x/image/webp" // decode webp to scale it

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/app/chat/provider"
)

// Limits of an image a tool returns, as it reaches the model. Larger images
// are scaled down (aspect ratio kept) and re-encoded; an image that is still
// too large, or that cannot be decoded, reaches the model as the one-line
// description it gets when images are off. Variables so tests can shorten
// them.
var (
	// MaxImageSide is the longest side in pixels: 1568, what Anthropic
	// recommends (larger images are scaled down by the API anyway, after
	// costing their full upload) and well within OpenAI's and Ollama's.
	MaxImageSide = 1568
	// MaxImageBytes is the largest image in bytes (before base64), below
	// every provider's per-image limit (Anthropic: 5 MB).
	MaxImageBytes = 3 << 20
)

// errImage: the image cannot be sent as an image.
var errImage = errors.New("the image cannot be sent to the model")

// modelMIME are the image types every provider with vision accepts.
var modelMIME = map[string]bool{"image/png": true, "image/jpeg": true, "image/gif": true, "image/webp": true}

// modelImage prepares a tool's image for the model: scaled to MaxImageSide
// and MaxImageBytes when larger. Its error says why it cannot go as an image.
func modelImage(c mcp.ImageContent) (provider.Image, error) {
	mime := strings.ToLower(strings.TrimSpace(c.MIMEType))
	if mime == "image/jpg" {
		mime = "image/jpeg"
	}
	if !modelMIME[mime] {
		return provider.Image{}, fmt.Errorf("%w: type %q (models take PNG, JPEG, GIF or WebP)", errImage, c.MIMEType)
	}
	raw, err := base64.StdEncoding.DecodeString(c.Data)
	if err != nil {
		return provider.Image{}, fmt.Errorf("%w: not base64: %w", errImage, err)
	}
	cfg, _, err := image.DecodeConfig(bytes.NewReader(raw))
	if err != nil {
		return provider.Image{}, fmt.Errorf("%w: %w", errImage, err)
	}
	if max(cfg.Width, cfg.Height) <= MaxImageSide && len(raw) <= MaxImageBytes {
		return provider.Image{MIMEType: mime, Data: c.Data}, nil
	}
	src, _, err := image.Decode(bytes.NewReader(raw))
	if err != nil {
		return provider.Image{}, fmt.Errorf("%w: %w", errImage, err)
	}
	for side := MaxImageSide; side >= 64; side = side * 3 / 4 {
		out, outMIME, err := scaled(src, side, mime)
		if err != nil {
			return provider.Image{}, fmt.Errorf("%w: %w", errImage, err)
		}
		if len(out) <= MaxImageBytes {
			return provider.Image{MIMEType: outMIME, Data: base64.StdEncoding.EncodeToString(out)}, nil
		}
	}
	return provider.Image{}, fmt.Errorf("%w: larger than %d bytes even scaled down", errImage, MaxImageBytes)
}

// resourceImage is an embedded blob resource of an image type as image
// content (a screenshot a server returns as a resource rather than an
// image), so it reaches a model that takes images as one; ok is false for
// any other content.
func resourceImage(c mcp.Content) (img mcp.ImageContent, uri string, ok bool) {
	e, isRes := c.(mcp.EmbeddedResource)
	if !isRes {
		return mcp.ImageContent{}, "", false
	}
	r, isBlob := e.Resource.(mcp.BlobResourceContents)
	if !isBlob || !strings.HasPrefix(strings.ToLower(strings.TrimSpace(r.MIMEType)), "image/") {
		return mcp.ImageContent{}, "", false
	}
	return mcp.ImageContent{Type: "image", MIMEType: r.MIMEType, Data: r.Blob}, r.URI, true
}

// scaled fits src in side×side and encodes it: PNG when the original was
// PNG or GIF (sharp edges, transparency), else JPEG.
func scaled(src image.Image, side int, mime string) ([]byte, string, error) {
	b := src.Bounds()
	w, h := b.Dx(), b.Dy()
	if w > side || h > side {
		if w >= h {
			w, h = side, max(1, h*side/w)
		} else {
			w, h = max(1, w*side/h), side
		}
	}
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	xdraw.CatmullRom.Scale(dst, dst.Bounds(), src, b, draw.Src, nil)
	var buf bytes.Buffer
	if mime == "image/png" || mime == "image/gif" {
		err := png.Encode(&buf, dst)
		return buf.Bytes(), "image/png", err
	}
	err := jpeg.Encode(&buf, dst, &jpeg.Options{Quality: 85})
	return buf.Bytes(), "image/jpeg", err
}
