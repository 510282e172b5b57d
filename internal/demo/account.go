package demo

import (
	"crypto/rand"
	"encoding/json"
	"net/http"
	"strings"
)

// login hands out a bearer token for any user name: the demo checks no
// password, it only gives flows something to extract and send back.
func (s *shop) login(w http.ResponseWriter, r *http.Request) int {
	var in struct {
		User     string `json:"user"`
		Password string `json:"password"`
	}
	if err := json.NewDecoder(r.Body).Decode(&in); err != nil || in.User == "" {
		return writeJSON(w, http.StatusBadRequest, map[string]any{"error": `want a JSON body {"user": "...", "password": "..."}`})
	}
	token := "tok-" + in.User + "-" + rand.Text()[:12]
	s.tokens.Store(token, in.User)
	return writeJSON(w, http.StatusOK, map[string]any{"token": token, "user": in.User})
}

// me returns the user a bearer token belongs to.
func (s *shop) me(w http.ResponseWriter, r *http.Request) int {
	user, ok := s.tokens.Load(strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer "))
	if !ok {
		return writeJSON(w, http.StatusUnauthorized, map[string]any{"error": "bad token: log in with POST /login and send Authorization: Bearer <token>"})
	}
	return writeJSON(w, http.StatusOK, map[string]any{"user": user})
}
