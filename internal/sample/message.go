package sample

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/loadlens/loadlens/internal/units"
)

// MaxTargetMessage bounds, in bytes, what a failure keeps of what the
// target said (an error response's body, a gRPC status message): the
// sentence that names a bottleneck fits, a huge page costs no more.
const MaxTargetMessage = 512

// ellipsis marks a message cut at MaxTargetMessage or a body read in part.
const ellipsis = "…"

// TargetMessage returns what an error response's body says, for an error
// sample: a JSON object's message, detail or error field when it has one
// (in that order of preference), else the whole text; cut says the body
// went on past what was read. The result is valid UTF-8 of at most
// MaxTargetMessage bytes, its whitespace collapsed and its control
// characters escaped; "" for an empty or blank body.
func TargetMessage(body []byte, cut bool) string {
	body = bytes.TrimSpace(body)
	if len(body) == 0 {
		return ""
	}
	if body[0] == '{' {
		if m, ok := jsonMessage(json.NewDecoder(bytes.NewReader(body)), 0); ok {
			return CleanMessage(m, false) // the field is whole, or it was cut where the body was
		}
	}
	return CleanMessage(string(body), cut)
}

// messageKeys are the fields that carry an error's sentence, best first:
// Spring's and most frameworks' message, RFC 9457's detail, a bare error.
var messageKeys = [...]string{"message", "detail", "error"}

// jsonMessage reads an object (its '{' not yet read when depth is 0) and
// returns its best non-empty message field; an "error" object is searched
// one level down, as {"error":{"message":...}} APIs nest it. A body cut
// mid-object still yields the fields read before the cut.
func jsonMessage(dec *json.Decoder, depth int) (string, bool) {
	if depth == 0 {
		if t, err := dec.Token(); err != nil || t != json.Delim('{') {
			return "", false
		}
	}
	best, rank := "", len(messageKeys)
	for dec.More() {
		kt, err := dec.Token()
		if err != nil {
			break
		}
		key, _ := kt.(string)
		vt, err := dec.Token()
		if err != nil {
			break
		}
		r := keyRank(key)
		switch v := vt.(type) {
		case string:
			if r < rank && strings.TrimSpace(v) != "" {
				best, rank = v, r
			}
		case json.Delim:
			if v == '{' && depth == 0 && r < rank {
				if m, ok := jsonMessage(dec, 1); ok {
					best, rank = m, r
				}
				continue
			}
			if !skipValue(dec, v) {
				return best, rank < len(messageKeys)
			}
		}
	}
	if depth > 0 {
		_, _ = dec.Token() // the nested object's '}'
	}
	return best, rank < len(messageKeys)
}

// keyRank is a field name's place in messageKeys, len(messageKeys) when
// it is none of them.
func keyRank(key string) int {
	for i, k := range messageKeys {
		if strings.EqualFold(key, k) {
			return i
		}
	}
	return len(messageKeys)
}

// skipValue consumes a nested object or array whose opening delimiter d
// was read, reporting false when the input ended first.
func skipValue(dec *json.Decoder, d json.Delim) bool {
	if d != '{' && d != '[' {
		return true
	}
	for depth := 1; depth > 0; {
		t, err := dec.Token()
		if err != nil {
			return false
		}
		switch t {
		case json.Delim('{'), json.Delim('['):
			depth++
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
	}
	return true
}

// CleanMessage makes s fit to keep and show: invalid bytes and control
// characters escaped (\x00, \u202e), runs of whitespace one space, at most
// MaxTargetMessage bytes, ending in "…" when it was cut here or before
// (cut).
func CleanMessage(s string, cut bool) string {
	var sb strings.Builder
	sb.Grow(min(len(s), MaxTargetMessage))
	fit := 0 // the longest output so far that leaves room for the ellipsis
	space := false
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		var piece string
		switch {
		case r == utf8.RuneError && size == 1:
			piece = `\x` + strconv.FormatUint(uint64(s[i-1])|0x100, 16)[1:]
		case unicode.IsSpace(r):
			space = sb.Len() > 0
			continue
		case units.Unsafe(r, size) || r == utf8.RuneError:
			q := strconv.QuoteRuneToASCII(r)
			piece = q[1 : len(q)-1]
		default:
			piece = s[i-size : i]
		}
		if space {
			piece, space = " "+piece, false
		}
		if sb.Len()+len(piece) > MaxTargetMessage {
			cut = true
			break
		}
		sb.WriteString(piece)
		if sb.Len() <= MaxTargetMessage-len(ellipsis) {
			fit = sb.Len()
		}
	}
	out := sb.String()
	if cut && out != "" {
		out = out[:fit] + ellipsis
	}
	return out
}

// ShortStatus is a failure's message with its status line's reason phrase
// left out when the target said more ("500: HikariPool-1 - …" for "500
// Internal Server Error: HikariPool-1 - …"), for a narrow column or a
// quote: the reason phrase says again what the status does.
func ShortStatus(status int, msg string) string {
	code := strconv.Itoa(status)
	line, said, ok := strings.Cut(msg, ": ")
	if status == 0 || !ok || !strings.HasPrefix(line, code+" ") || strings.TrimSpace(said) == "" {
		return msg
	}
	return code + ": " + said
}
