package protocol

import (
	"errors"
	"io"
	"strconv"

	"github.com/loadlens/loadlens/internal/sample"
)

// Refused words a session's opening answered with a status other than the
// one it needs (a WebSocket upgrade's 101, a stream's 200): the status
// line, then what the target said in the answer's body, read as an HTTP
// step reads an error body (sample.TargetMessage: a JSON message, detail
// or error field, else the text; at most sample.MaxTargetMessage bytes,
// control characters escaped): "401 Unauthorized: invalid token". At most
// sample.MaxTargetMessage+1 bytes of body are read, whatever it claims;
// a body that fails part way (a stall ended by the step's timeout) is
// quoted as far as it came, ending in "…".
func Refused(status int, reason string, body io.Reader) string {
	line := strconv.Itoa(status)
	if reason != "" {
		line += " " + reason
	}
	if body == nil {
		return line
	}
	buf := make([]byte, sample.MaxTargetMessage+1) // one byte past: says whether it went on
	n, err := io.ReadFull(body, buf)
	// a read that failed before the body's end (a stall's timeout) left the rest unread
	cut := n > sample.MaxTargetMessage || err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF)
	if said := sample.TargetMessage(buf[:min(n, sample.MaxTargetMessage)], cut); said != "" {
		return line + ": " + said
	}
	return line
}
