from generator.commands.cli import main

raise SystemExit(main())
