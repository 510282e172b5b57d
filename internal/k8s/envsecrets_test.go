package k8s

import (
	"strings"
	"testing"
)

func TestParseSecretRef(t *testing.T) {
	for _, tc := range []struct {
		ref, secret, key, err string
	}{
		{ref: "api-keys/token", secret: "api-keys", key: "token"},
		{ref: "api-keys/tls.crt", secret: "api-keys", key: "tls.crt"},
		{ref: "api-keys/" + strings.Repeat("k", 253), secret: "api-keys", key: strings.Repeat("k", 253)},
		{ref: "api-keys/" + strings.Repeat("k", 254), err: "is not a Secret's key"},
		{ref: "api-keys/a b", err: "is not a Secret's key"},
		{ref: "API/token", err: "is not a Kubernetes object name"},
		{ref: "api-keys", err: "want SECRET/KEY"},
		{ref: "api-keys/", err: "want SECRET/KEY"},
	} {
		secret, key, err := ParseSecretRef(tc.ref)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("ParseSecretRef(%.20q…) = %v, want an error saying %q", tc.ref, err, tc.err)
			}
			continue
		}
		if err != nil || secret != tc.secret || key != tc.key {
			t.Errorf("ParseSecretRef(%.20q…) = %q, %q, %v", tc.ref, secret, key, err)
		}
	}
}
