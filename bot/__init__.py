"""The Annals application: store, service, scheduler and transports."""
