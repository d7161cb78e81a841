package secrets_test

import (
	"fmt"

	"github.com/switchboard-app/switchboard/app/secrets"
	"github.com/switchboard-app/switchboard/app/secrets/secretstest"
)

// A secret kept in the keyring, resolved into a server's header when it
// starts, and masked in whatever text is logged afterwards.
func Example() {
	// The example uses go-keyring's in-memory keyring; the app uses the
	// OS one (Secret Service, Keychain, Credential Manager).
	secretstest.UseMockKeyring()

	st := secrets.NewStore()
	if err := st.Available(); err != nil {
		fmt.Println(err) // one sentence: what to install or unlock
		return
	}
	if err := st.Set("github_GITHUB_TOKEN", "ghp_example123456"); err != nil {
		fmt.Println(err)
		return
	}
	header, err := secrets.Expand("Bearer ${secret:github_GITHUB_TOKEN}", st.Lookup)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(header == "Bearer ghp_example123456")

	red := secrets.NewRedactor()
	red.Add("ghp_example123456")
	fmt.Println(red.Redact("401 from api.github.com with Authorization: " + header))

	_, err = secrets.Expand("${secret:missing}", st.Lookup)
	fmt.Println(err)
	// Output:
	// true
	// 401 from api.github.com with Authorization: Bearer ••••3456
	// secret "missing": secret not found in the keyring
}
