module example.com/perfgate/gobench

go 1.22
