package bundle

import (
	"bytes"
	"crypto/sha256"
	"crypto/x509"
	"encoding/asn1"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
)

// Signature block markers the mcpb CLI appends to a signed bundle
// ("mcpb sign"): header, little-endian uint32 length, PKCS#7 DER, footer.
var (
	sigHeader = []byte("MCPB_SIG_V1")
	sigFooter = []byte("MCPB_SIG_END")
)

// Signature statuses.
const (
	Unsigned   = "unsigned"    // no signature block
	Signed     = "signed"      // valid, by a certificate this computer trusts
	SelfSigned = "self-signed" // valid, by a certificate that vouches for itself
	Untrusted  = "untrusted"   // valid, by a certificate this computer does not trust
	Invalid    = "invalid"     // a signature block that does not verify
)

// Signature is who signed a bundle, as far as its signature block shows.
type Signature struct {
	Status      string `json:"status"`
	Publisher   string `json:"publisher,omitempty"` // the signing certificate's common name
	Issuer      string `json:"issuer,omitempty"`
	Fingerprint string `json:"fingerprint,omitempty"` // SHA-256 of the certificate
	Why         string `json:"why,omitempty"`         // why Invalid
}

// Summary says it in one sentence for the window and the CLI.
func (s Signature) Summary() string {
	switch s.Status {
	case Signed:
		return fmt.Sprintf("Signed by %s (certificate from %s)", s.Publisher, s.Issuer)
	case SelfSigned:
		return fmt.Sprintf("Signed by %s with a self-signed certificate: nobody else vouches for it", s.Publisher)
	case Untrusted:
		return fmt.Sprintf("Signed by %s, but this computer does not trust the certificate (from %s)", s.Publisher, s.Issuer)
	case Invalid:
		return "The signature does not match the bundle (" + s.Why + "): it may have been changed after signing"
	}
	return "Unsigned: nobody vouches for who made this bundle"
}

// splitSignature returns the archive without its signature block, and the
// PKCS#7 DER of the block (nil when unsigned).
func splitSignature(data []byte) (content, sig []byte) {
	f := bytes.LastIndex(data, sigFooter)
	if f < 0 || f+len(sigFooter) != len(data) {
		return data, nil
	}
	h := bytes.LastIndex(data[:f], sigHeader)
	if h < 0 || h+len(sigHeader)+4 > f {
		return data, nil
	}
	n := binary.LittleEndian.Uint32(data[h+len(sigHeader):])
	start := h + len(sigHeader) + 4
	if uint64(start)+uint64(n) != uint64(f) {
		return data, nil
	}
	return data[:h], data[start:f]
}

var (
	oidSignedData    = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 7, 2}
	oidMessageDigest = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 9, 4}
)

type contentInfo struct {
	ContentType asn1.ObjectIdentifier
	Content     asn1.RawValue `asn1:"explicit,optional,tag:0"`
}

type signedData struct {
	Version          int
	DigestAlgorithms asn1.RawValue
	ContentInfo      contentInfo
	Certificates     asn1.RawValue `asn1:"optional,tag:0"`
	CRLs             asn1.RawValue `asn1:"optional,tag:1"`
	SignerInfos      []signerInfo  `asn1:"set"`
}

type signerInfo struct {
	Version                   int
	IssuerAndSerial           asn1.RawValue
	DigestAlgorithm           asn1.RawValue
	AuthenticatedAttributes   asn1.RawValue `asn1:"optional,tag:0"`
	DigestEncryptionAlgorithm asn1.RawValue
	EncryptedDigest           []byte
	UnauthenticatedAttributes asn1.RawValue `asn1:"optional,tag:1"`
}

type attribute struct {
	Type   asn1.ObjectIdentifier
	Values asn1.RawValue `asn1:"set"`
}

// verify checks a detached PKCS#7 signature (SHA-256, authenticated
// attributes) over content, as "mcpb sign" makes it.
func verify(content, sig []byte) Signature {
	if sig == nil {
		return Signature{Status: Unsigned}
	}
	s, err := verifyPKCS7(content, sig)
	if err != nil {
		return Signature{Status: Invalid, Why: err.Error(), Publisher: s.Publisher}
	}
	return s
}

func verifyPKCS7(content, sig []byte) (Signature, error) {
	var ci contentInfo
	if _, err := asn1.Unmarshal(sig, &ci); err != nil || !ci.ContentType.Equal(oidSignedData) {
		return Signature{}, errors.New("not a PKCS#7 signature")
	}
	var sd signedData
	if _, err := asn1.Unmarshal(ci.Content.Bytes, &sd); err != nil {
		return Signature{}, fmt.Errorf("PKCS#7: %w", err)
	}
	certs, err := x509.ParseCertificates(sd.Certificates.Bytes)
	if err != nil || len(certs) == 0 || len(sd.SignerInfos) == 0 {
		return Signature{}, errors.New("no signing certificate")
	}
	cert := certs[0]
	fp := sha256.Sum256(cert.Raw)
	s := Signature{Publisher: cert.Subject.CommonName, Issuer: cert.Issuer.CommonName, Fingerprint: hex.EncodeToString(fp[:])}
	si := sd.SignerInfos[0]
	if len(si.AuthenticatedAttributes.FullBytes) == 0 {
		return s, errors.New("no signed attributes")
	}
	var attrs []attribute
	if _, err := asn1.UnmarshalWithParams(si.AuthenticatedAttributes.FullBytes, &attrs, "set,tag:0"); err != nil {
		return s, fmt.Errorf("signed attributes: %w", err)
	}
	digest := sha256.Sum256(content)
	matched := false
	for _, a := range attrs {
		if a.Type.Equal(oidMessageDigest) {
			var d []byte
			if _, err := asn1.Unmarshal(a.Values.Bytes, &d); err == nil && bytes.Equal(d, digest[:]) {
				matched = true
			}
		}
	}
	if !matched {
		return s, errors.New("the bundle's digest differs from the signed one")
	}
	// The signature covers the attributes encoded as a SET, not [0].
	signed := bytes.Clone(si.AuthenticatedAttributes.FullBytes)
	signed[0] = 0x31
	if err := cert.CheckSignature(x509.SHA256WithRSA, signed, si.EncryptedDigest); err != nil {
		if err2 := cert.CheckSignature(x509.ECDSAWithSHA256, signed, si.EncryptedDigest); err2 != nil {
			return s, fmt.Errorf("signature: %w", err)
		}
	}
	inter := x509.NewCertPool()
	for _, c := range certs[1:] {
		inter.AddCert(c)
	}
	if _, err := cert.Verify(x509.VerifyOptions{Intermediates: inter, KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageAny}}); err == nil {
		s.Status = Signed
	} else if bytes.Equal(cert.RawIssuer, cert.RawSubject) {
		s.Status = SelfSigned
	} else {
		s.Status = Untrusted
	}
	return s, nil
}

// ErrInvalidSignature means the bundle has a signature block that does not
// verify (changed after signing, or another bundle's block).
var ErrInvalidSignature = errors.New("the bundle's signature does not match it")

// SignatureError says why a signature block does not verify.
type SignatureError struct{ Why string }

func (e *SignatureError) Error() string {
	return fmt.Sprintf("%v (%s): it was changed after signing, or the signature is another bundle's; nothing was installed: get the bundle again from its publisher", ErrInvalidSignature, e.Why)
}

func (e *SignatureError) Unwrap() error { return ErrInvalidSignature }

// Err is a *SignatureError for an Invalid signature, else nil: an unsigned
// bundle says nobody vouches for it, but one whose signature does not
// match claims someone did and is refused.
func (s Signature) Err() error {
	if s.Status != Invalid {
		return nil
	}
	return &SignatureError{Why: s.Why}
}
