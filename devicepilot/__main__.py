from devicepilot.cli import main

raise SystemExit(main())
