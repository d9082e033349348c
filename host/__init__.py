"""The agent on a lab machine: builds its devices, dials out to the server, runs what it is asked."""
