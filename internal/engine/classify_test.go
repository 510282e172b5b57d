package engine

import (
	"fmt"
	"io"
	"testing"

	"github.com/loadlens/loadlens/internal/engine/h1"
	"github.com/loadlens/loadlens/internal/sample"
)

// TestClassifyNamesAnH2CAnswer: a plain-http server that answers HTTP/2
// frames is not a reset connection (trial B: 100% conn_reset "unexpected
// EOF" against nginx's `listen … http2`); its message, whole, says what
// happened and how to go on.
func TestClassifyNamesAnH2CAnswer(t *testing.T) {
	tests := []struct {
		name string
		err  error
		kind sample.Kind
		msg  string
	}{
		{"h2c", fmt.Errorf("read: %w", h1.ErrHTTP2Cleartext), sample.Other, "read: " + h1.ErrHTTP2Cleartext.Error()},
		{"a close before the head", io.ErrUnexpectedEOF, sample.ConnReset, "unexpected EOF"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if kind, msg := classify(tt.err); kind != tt.kind || msg != tt.msg {
				t.Errorf("classify = %v %q, want %v %q", kind, msg, tt.kind, tt.msg)
			}
		})
	}
}
