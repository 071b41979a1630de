/* tbk-cluster --help, kept apart from the option parsing it documents. */
#ifndef TBK_CLUSTER_USAGE_H
#define TBK_CLUSTER_USAGE_H
void cluster_usage(void);
#endif
