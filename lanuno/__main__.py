from lanuno.cli import main

raise SystemExit(main())
