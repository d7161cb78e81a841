package cli

import "flag"

// clientFlag is serve's --client NAME: the app (config.ClientApps'
// short name) whose entry started this serve, as 'clients connect'
// writes it. Serve records the app's use and gives it the servers chosen
// for it ('clients servers NAME A,B'). One place, so every serve mode
// (standalone, or attached to a running Switchboard) reads it alike.
func clientFlag(fs *flag.FlagSet, client *string) {
	fs.StringVar(client, "client", "", "the app this serve is for (`NAME`, as 'switchboard clients' lists it): it sees the servers chosen for it, and its use is recorded")
}

// servingClient records that serve started for the app named by
// --client ("" for none) and returns the servers it sees (nil: all).
func servingClient(inv *Invocation, client string) ([]string, error) {
	if client == "" {
		return nil, nil
	}
	h, err := openHost(inv, "")
	if err != nil {
		return nil, err
	}
	defer closeServers(h)
	only, err := h.Clients.Serving(client)
	if err != nil {
		return nil, clientErr(err)
	}
	if len(only) == 0 {
		return nil, nil
	}
	return only, nil
}
