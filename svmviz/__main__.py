from svmviz.cli import main

raise SystemExit(main())
