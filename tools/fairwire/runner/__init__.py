"""The fairwire campaign runner: builds fuzz targets, runs libFuzzer and AFL++
campaigns, triages and shrinks what they find, and writes reports."""
