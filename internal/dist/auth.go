package dist

import (
	"crypto/sha256"
	"crypto/subtle"
)

// tokenMatches compares a presented token with the agent's in constant
// time: both are hashed first, so neither the content nor the length of the
// right token leaks through timing.
func tokenMatches(presented, want string) bool {
	a, b := sha256.Sum256([]byte(presented)), sha256.Sum256([]byte(want))
	return subtle.ConstantTimeCompare(a[:], b[:]) == 1 && want != ""
}
