"""English prose about where it works and where it does not, round 16: a Jupyter notebook whose
sys.executable is the base (root) environment's Python, not the environment Jupyter was started from.
Each row is verbatim from one public thread whose fix was confirmed (the reporter says it worked, or a
maintainer states cause and fix); the cause ranks first and its fixes name the knob the confirmed fix
turned. Look-alike rows are real texts of other matters that the new entry
(checks/signatures/python_env.toml) could wrongly catch."""

from __future__ import annotations

from tests.triage_lines import knob_test, lookalike_test

KERNEL = "python.notebook-kernel-not-active-env"

# (message verbatim, the finding id first, text one of its fixes names, thread URL)
KNOB = [
    (
        "Jupyter Notebook on Windows 10, uses the default conda root instead of environment\nI installed the latest version of anaconda 4.2.0_x86_X64 on my windows 10 machine.\nI then created a new environment,\nconda create -n ker python=3.4\nactivate ker\njupyter notebook\nHowever, it still uses the root conda:\nimport sys\nprint(sys.executable)\nC:\\Users\\cm\\Anaconda3\\python.exe",
        KERNEL,
        "ipykernel",
        # maintainers: install ipykernel in the environment; the reporter: works like a charm
        "https://github.com/jupyter/notebook/issues/1926",
    ),
    (
        "Different excutables for python and jupyter. Cannot import installed modules in jupyter.\nI've created an environment with python 3.6 using anaconda. I've installed a few modules, including tensorflow, in the environment. \n\nI'm able to import tensorflow when running python in the command line.  However, when I import tensorflow in jupyter, I get:\nModuleNotFoundError: No module named 'tensorflow' \n\nI've noticed the system executables are not the same for python and jupyter. Is that the issue? If so, how can I update the executables and solve the issue?\n\nsys.executable for python:\n'C:\\\\Users\\\\jpm1\\\\AppData\\\\Local\\\\Continuum\\\\anaconda3\\\\envs\\\\py36\\\\python.exe'\n\nsys.executable for jupyter:\n'C:\\\\Users\\\\jpm1\\\\AppData\\\\Local\\\\Continuum\\\\anaconda3\\\\python.exe'",
        KERNEL,
        "kernel.json",
        # the reporter: solved it by updating the kernel's kernel.json (the interpreter path)
        "https://github.com/jupyter/notebook/issues/5054",
    ),
    (
        "Getting jupyter notebooks to work with conda envs\nWhile trying to set up the tutorial this week, I thought I'd set up a conda environment with emcee and chainconsumer so that any user could easily run the notebook. Then I discovered that even when I run `jupyter notebook` from a conda environment, the notebook isn't actually using the environment. I checked this by running `sys.executable` which gave me:\n```\n'/Users/cadams/anaconda3/bin/python'\n```\nwhen it should have given me:\n```\n/Users/cadams/anaconda3/envs/chainconsumerenv/bin/python\n```",
        KERNEL,
        "conda install jupyter",
        # the reporter: `conda install jupyter` inside the new environment fixed it
        "https://github.com/swincas/cookies-n-code/issues/31",
    ),
    (
        "### PROBLEM:\n\nFrom within myENV created from conda, run jupyter notebook, but in this notebook some module that could be loaded from myENV just through out error like:\n---------------------------------------------------------------------------\nModuleNotFoundError                       Traceback (most recent call last)\n<ipython-input-6-ae142f98063f> in <module>()\n      1 # import libraries\n----> 2 import folium\n\nModuleNotFoundError: No module named 'folium'\n\n===========\n### Check:\n\n1. `which jupyter`\nsince even sys.path show correct path of myENV, the sys.executable can be different in myENV and in Jupyter notebook. This can simply because the jupyter you run is not installed in myENV and it has to fallback to the base install. It happens that in the base environment the module you want to use is not installed. ----> error!!!",
        KERNEL,
        "conda install jupyter",
        # the commenter's own case (Jupyter not in the env, fell back to base): `conda install jupyter` in the env
        "https://github.com/jupyter/notebook/issues/2359",
    ),
]

# (a real text of another matter, the cause it must not be read as, thread URL)
LOOKALIKE = [
    (
        "I have the same issue but, at the same time, kind of different.\n\n`sys.executable` gives the same result in both terminal and notebook but `sys.path` is different. I updated the PYTHONPATH to include some modules I coded myself, but while they are successfully imported when I run python from terminal without any exceptions when I do the same from the notebook I get No module named <name of module>",
        KERNEL,
        # sys.executable is the same in both: PYTHONPATH differs, not the kernel
        "https://github.com/jupyter/notebook/issues/3311",
    ),
]


test_reaches_the_cause_with_its_knob = knob_test(KNOB)


test_lookalike_is_not_read_as_the_new_cause = lookalike_test(LOOKALIKE, may_be_empty=True)
