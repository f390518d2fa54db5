# Web-search flow sizes, from the measurements of a production web-search cluster published in
#   M. Alizadeh, A. Greenberg, D. A. Maltz, J. Padhye, P. Patel, B. Prabhakar, S. Sengupta,
#   M. Sridharan: "Data Center TCP (DCTCP)", SIGCOMM 2010, Figure 4 (flow size distribution of
#   the background traffic),
# read off as the points later evaluations (pFabric, DCQCN, HPCC) sample from: most flows are
# short queries and updates, most bytes are in flows of 1-30 MB. Mean about 1.7 MB.
#
# size (bytes)   cumulative percent
0          0
10000      15
20000      20
30000      30
50000      40
80000      53
200000     60
1000000    70
2000000    80
5000000    90
10000000   97
30000000   100
