from dominocam.cli import main

raise SystemExit(main())
